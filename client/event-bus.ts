// A typed in-page event bus: the agent runtime announces, the sidebar, backlinks and graph views listen.
import type { FileChangeKind } from '../plugin/protocol'
import type { AgentState } from './runtime/state-machine'
import { createListenerSet } from './runtime/listener-set'
import type { ListenerSet } from './runtime/listener-set'

export interface EventBus<Events extends Record<string, unknown>> {
  /** Listens until the returned function is called. */
  on<Name extends keyof Events & string>(name: Name, listener: (payload: Events[Name]) => void): () => void
  /** Listens for the next event only; the returned function cancels it before then. */
  once<Name extends keyof Events & string>(name: Name, listener: (payload: Events[Name]) => void): () => void
  /** Calls each listener of `name`; one that throws is reported and the rest still run. */
  emit<Name extends keyof Events & string>(name: Name, payload: Events[Name]): void
  listenerCount(name: keyof Events & string): number
  /** Removes every listener, of one event or of all. */
  clear(name?: keyof Events & string): void
}

export function createEventBus<Events extends Record<string, unknown>>(): EventBus<Events> {
  const channels = new Map<string, ListenerSet<unknown>>()

  function channel(name: string): ListenerSet<unknown> {
    let listeners = channels.get(name)
    if (listeners === undefined) {
      listeners = createListenerSet<unknown>(`event "${name}"`)
      channels.set(name, listeners)
    }
    return listeners
  }

  const bus: EventBus<Events> = {
    on(name, listener) {
      return channel(name).add(listener as (payload: unknown) => void)
    },
    once(name, listener) {
      const unsubscribe = bus.on(name, (payload) => {
        unsubscribe()
        listener(payload)
      })
      return unsubscribe
    },
    emit(name, payload) {
      channels.get(name)?.emit(payload)
    },
    listenerCount(name) {
      return channels.get(name)?.size ?? 0
    },
    clear(name) {
      if (name === undefined) channels.clear()
      else channels.delete(name)
    },
  }
  return bus
}

export interface TaskFailure {
  code: string
  message: string
}

/** The page's events. A type alias, not an interface, so it satisfies `Record<string, unknown>`. */
export type MetaBlogEvents = {
  'agent:taskStarted': { taskId: string; skill: string; title: string }
  'agent:taskCompleted': { taskId: string; skill: string; path?: string }
  'agent:taskFailed': { taskId: string; skill: string; error: TaskFailure }
  /** `taskId` is null when no task is running (IDLE). */
  'agent:stateChanged': { taskId: string | null; state: AgentState; reason?: string }
  /** `index` is zero-based: step `index + 1` of `total`. */
  'agent:progress': { taskId: string; step: string; index: number; total: number; message: string }
  /** `hash` is null for a deletion, as in the server's `metablog:file-changed`. */
  'file:written': { path: string; hash: string | null; kind: FileChangeKind }
  /** `paths` lists the pages whose links changed, when known. */
  'graph:changed': { paths?: string[] }
  'sidebar:changed': { paths?: string[] }
  /** How a chat request through the gateway ended: the panel's dot shows the last one. */
  'llm:request': { ok: boolean; code?: string; message?: string; at: number }
  /** The conversation's model changed (picked, restored with a logged conversation, or back to the default: null). */
  'llm:modelChosen': { model: string | null }
}

/** The page's shared bus; tests and isolated runtimes can build their own with `createEventBus`. */
export const eventBus: EventBus<MetaBlogEvents> = createEventBus<MetaBlogEvents>()
