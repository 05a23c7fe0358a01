// For the client's JS build (plain tsc): a .vue import is a component. vue-tsc checks the real types.
declare module '*.vue' {
  import type { DefineComponent } from 'vue'
  const component: DefineComponent<object, object, unknown>
  export default component
}
