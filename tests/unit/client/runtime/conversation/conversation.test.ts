import { describe, expect, it } from 'vitest'
import type { SessionEntry, SessionsApi } from '../../../../../client/api/sessions.js'
import { createPlainChatState } from '../../../../../client/runtime/chat-state.js'
import { Conversation, modelOfEntries } from '../../../../../client/runtime/conversation/conversation.js'
import { createLogger } from '../../../../../client/runtime/logger.js'

const at = '2026-01-01T00:00:00.000Z'
const ENTRIES: SessionEntry[] = [
  { v: 1, at, type: 'meta', model: 'alpha' },
  { v: 1, at, type: 'user', text: 'first' },
  { v: 1, at, type: 'assistant', text: 'one' },
  { v: 1, at, type: 'meta', model: 'zeta' },
]

/** Session routes whose reads wait until the test releases them. */
function slowSessions() {
  const releases: (() => void)[] = []
  const api = {
    read: (id: string) => new Promise((resolve) => releases.push(() => resolve({ id, entries: ENTRIES, skipped: 0 }))),
    append: async () => ({ id: 'x', appended: 1, size: 1 }),
  } as unknown as SessionsApi
  return { api, release: () => releases.shift()?.() }
}

function conversation(sessions: SessionsApi, restored: (string | null)[]) {
  return new Conversation({ state: createPlainChatState(), logger: createLogger({ sink: null }), sessions, restoreModel: (model) => restored.push(model) })
}

describe('Conversation', () => {
  it('takes the model of the last meta entry', () => {
    expect(modelOfEntries(ENTRIES)).toBe('zeta')
    expect(modelOfEntries(ENTRIES.slice(1, 3))).toBeNull()
  })

  it('names the log being restored as its id, and restores its memory and model', async () => {
    const { api, release } = slowSessions()
    const restored: (string | null)[] = []
    const talk = conversation(api, restored)
    const restoring = talk.restoreSession('s-old')
    expect(talk.sessionId).toBe('s-old')
    release()
    await restoring
    expect(talk.sessionId).toBe('s-old')
    expect(talk.history().length).toBeGreaterThan(0)
    expect(restored).toEqual(['zeta'])
  })

  it('does not bring an old conversation back when a new one started while it was being read', async () => {
    const { api, release } = slowSessions()
    const restored: (string | null)[] = []
    const talk = conversation(api, restored)
    const restoring = talk.restoreSession('s-old')
    talk.restart()
    const fresh = talk.sessionId
    expect(fresh).not.toBe('s-old')
    release()
    await restoring
    expect(talk.sessionId).toBe(fresh)
    expect(talk.history()).toEqual([])
    expect(restored).toEqual([])
  })
})
