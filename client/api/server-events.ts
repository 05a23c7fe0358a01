import type { MetaBlogEventMap } from '../../plugin/protocol'

/** Listens to a `metablog:*` event from the dev server; a no-op outside it. Returns the unsubscribe. */
export function onServerEvent<Name extends keyof MetaBlogEventMap>(name: Name, listener: (payload: MetaBlogEventMap[Name]) => void): () => void {
  const hot = import.meta.hot
  if (!hot) return () => undefined
  const handler = (payload: unknown) => listener(payload as MetaBlogEventMap[Name])
  hot.on(name, handler)
  return () => hot.off(name, handler)
}
