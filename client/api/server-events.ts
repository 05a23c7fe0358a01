import type { MetaBlogEventMap } from '../../plugin/protocol'
import type { EventBus, MetaBlogEvents } from '../event-bus'

/** Listens to a `metablog:*` event from the dev server; a no-op outside it. Returns the unsubscribe. */
export function onServerEvent<Name extends keyof MetaBlogEventMap>(name: Name, listener: (payload: MetaBlogEventMap[Name]) => void): () => void {
  const hot = import.meta.hot
  if (!hot) return () => undefined
  const handler = (payload: unknown) => listener(payload as MetaBlogEventMap[Name])
  hot.on(name, handler)
  return () => hot.off(name, handler)
}

/** Passes the dev server's events on to the page's bus, where the sidebar, backlinks and graph views listen. */
export function bridgeServerEvents(bus: EventBus<MetaBlogEvents>): () => void {
  const unsubscribes = [
    onServerEvent('metablog:file-changed', ({ path, kind, hash }) => bus.emit('file:written', { path, kind, hash })),
    onServerEvent('metablog:graph-updated', ({ paths }) => bus.emit('graph:changed', { paths })),
    onServerEvent('metablog:sidebar-updated', ({ paths }) => bus.emit('sidebar:changed', { paths })),
  ]
  return () => unsubscribes.forEach((unsubscribe) => unsubscribe())
}
