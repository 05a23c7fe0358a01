// @vitest-environment happy-dom
// An accepted card says what became of its write; Undo puts the page back (hash-guarded); an answer can be inserted.
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it } from 'vitest'
import { ApiError } from '../../../../client/api/errors'
import type { MetaBlogApi } from '../../../../client/api/metablog-api'
import { AgentRuntime } from '../../../../client/runtime/agent-runtime'
import { hashText } from '../../../../client/runtime/hash'
import { createLogger } from '../../../../client/runtime/logger'
import type { Skill, SkillContext } from '../../../../client/runtime/types'
import { useAssistantStore } from '../../../../client/stores/assistant'
import { PageWrites } from '../../../../client/stores/page-writes'
import { createFakeApi, flush, until } from '../components/assistant-harness'

const PAGE = 'posts/etags.md'
const ORIGINAL = '# ETags\n\nAn ETag is a kind of fingerprint.\n'

/** The fake dev server's pages, with the hash checks of PUT and DELETE /files. */
function createPages(initial: Record<string, string>) {
  const files = new Map(Object.entries(initial))
  const hashOf = (path: string) => hashText(files.get(path)!)
  const stale = async (path: string) => new ApiError('ERR_STALE', `${path} changed.`, 412, { currentHash: files.has(path) ? await hashOf(path) : null })
  const api = {
    lock: async (path: string, taskId: string) => ({ path, taskId, expiresAt: Date.now() + 60_000 }),
    readFile: async (path: string) => {
      if (!files.has(path)) throw new ApiError('ERR_NOT_FOUND', `No page ${path}.`, 404)
      return { path, content: files.get(path)!, hash: await hashOf(path) }
    },
    readHash: async (path: string) => (files.has(path) ? hashOf(path) : null),
    writeFile: async (path: string, content: string, expectedHash: string | null) => {
      const current = files.has(path) ? await hashOf(path) : null
      if (current !== expectedHash) throw await stale(path)
      files.set(path, content)
      return { path, hash: await hashOf(path) }
    },
    deleteFile: async (path: string, expectedHash: string) => {
      if (!files.has(path) || (await hashOf(path)) !== expectedHash) throw await stale(path)
      files.delete(path)
      return { path }
    },
  }
  return { files, api }
}

/** Reads the page, asks for approval of one edit, writes it with the hash it read (a conflict card if stale). */
function editSkill(beforeWrite: () => Promise<void> | void = () => undefined): Skill {
  return {
    name: 'scripted',
    intents: ['answer_question'],
    needsModel: false,
    title: () => 'Tighten the intro',
    steps: [
      {
        id: 'edit',
        title: 'Editing',
        async run(context: SkillContext) {
          const page = await context.pages.readPage(PAGE)
          const decision = await context.approve({ kind: 'edit', path: PAGE, summary: 'Tighten', before: 'a kind of fingerprint', after: 'a fingerprint' })
          if (decision.action !== 'accept') return
          await beforeWrite()
          const result = await context.pages.writeChecked({
            path: PAGE,
            content: page.content.replace('a kind of fingerprint', 'a fingerprint'),
            hash: page.hash,
            conflict: 'The page changed.',
            reapply: (current) => current.replace('a kind of fingerprint', 'a fingerprint'),
          })
          context.say(`Write: ${result.outcome}`)
        },
      },
    ],
  }
}

function answerSkill(): Skill {
  return {
    name: 'answer',
    intents: ['answer_question'],
    needsModel: false,
    title: () => 'Answer',
    steps: [
      {
        id: 'answer',
        title: 'Answering',
        async run(context: SkillContext) {
          const reply = context.replyStream()
          reply.append('ETags name one version of a page.')
          reply.done()
        },
      },
    ],
  }
}

async function setUp(skill: Skill, pages: Record<string, string> = { [PAGE]: ORIGINAL }) {
  setActivePinia(createPinia())
  const { api: base } = createFakeApi()
  const blog = createPages(pages)
  const journal = new PageWrites()
  const api = journal.wrap({ ...base, ...blog.api } as unknown as MetaBlogApi)
  const store = useAssistantStore()
  let runtime!: AgentRuntime
  store.connect((state) => (runtime = new AgentRuntime({ api, skills: [skill], state, logger: createLogger({ sink: null }) })), journal)
  await runtime.initialize()
  store.currentFile = PAGE
  return { store, files: blog.files }
}

const card = (store: ReturnType<typeof useAssistantStore>) => store.messages.find((message) => message.kind === 'approval')!

async function acceptFirstCard(store: ReturnType<typeof useAssistantStore>): Promise<void> {
  await until(() => store.messages.some((message) => message.kind === 'approval' && message.status === 'pending'), 'the approval card')
  store.decide(card(store).id, { action: 'accept' })
}

beforeEach(() => sessionStorage.clear())

describe('an accepted change in the panel', () => {
  it('stays "accepted" when the write lands, and Undo puts the page back', async () => {
    const { store, files } = await setUp(editSkill())
    store.send('/ask tighten')
    await acceptFirstCard(store)
    await until(() => store.status === 'COMPLETED', 'the task')
    expect(files.get(PAGE)).toContain('An ETag is a fingerprint.')
    expect(card(store).written).toBeUndefined()
    expect(store.canUndo(card(store).id)).toBe(true)

    await store.undo(card(store).id)
    expect(files.get(PAGE)).toBe(ORIGINAL)
    expect(card(store).written).toBe('undone')
    expect(store.canUndo(card(store).id)).toBe(false)
  })

  it('in auto-edit mode the card applied on its own offers Undo too', async () => {
    const { store, files } = await setUp(editSkill())
    store.setApprovalMode('auto-edit')
    store.send('/ask tighten')
    await until(() => store.status === 'COMPLETED', 'the task')
    expect(card(store).status).toBe('accepted')
    expect(files.get(PAGE)).toContain('An ETag is a fingerprint.')
    await until(() => store.canUndo(card(store).id), 'Undo to be offered')
    await store.undo(card(store).id)
    expect(files.get(PAGE)).toBe(ORIGINAL)
  })

  it('Undo refuses when the page changed since, and changes nothing', async () => {
    const { store, files } = await setUp(editSkill())
    store.send('/ask tighten')
    await acceptFirstCard(store)
    await until(() => store.status === 'COMPLETED', 'the task')
    files.set(PAGE, `${files.get(PAGE)}\nThe author added a line.\n`)
    const edited = files.get(PAGE)

    await store.undo(card(store).id)
    expect(files.get(PAGE)).toBe(edited)
    expect(store.undoState(card(store).id)?.problem).toMatch(/changed after this change was applied.*Nothing was changed/)
    expect(card(store).written).toBeUndefined()
  })

  it('says "conflict", not accepted, when the author changed the page before the write', async () => {
    let files!: Map<string, string>
    const skill = editSkill(() => void files.set(PAGE, `${ORIGINAL}\nA newer line.\n`))
    const setUpResult = await setUp(skill)
    files = setUpResult.files
    const { store } = setUpResult
    store.send('/ask tighten')
    await acceptFirstCard(store)
    await until(() => store.messages.some((message) => message.kind === 'conflict'), 'the conflict card')
    expect(card(store).status).toBe('accepted')
    expect(card(store).written).toBe('conflict')
    expect(store.canUndo(card(store).id)).toBe(false)

    const conflict = store.messages.find((message) => message.kind === 'conflict')!
    store.decide(conflict.id, 'drop')
    await until(() => store.status === 'COMPLETED', 'the task')
    expect(card(store).written).toBe('dropped')
    expect(files.get(PAGE)).toContain('A newer line.')
    expect(files.get(PAGE)).toContain('a kind of fingerprint')
  })

  it('a re-applied change is labelled so and can be undone to the author\'s version', async () => {
    let files!: Map<string, string>
    const setUpResult = await setUp(editSkill(() => void files.set(PAGE, `${ORIGINAL}\nA newer line.\n`)))
    files = setUpResult.files
    const { store } = setUpResult
    store.send('/ask tighten')
    await acceptFirstCard(store)
    await until(() => store.messages.some((message) => message.kind === 'conflict'), 'the conflict card')
    store.decide(store.messages.find((message) => message.kind === 'conflict')!.id, 'reapply')
    await until(() => store.status === 'COMPLETED', 'the task')
    expect(card(store).written).toBe('reapplied')
    await store.undo(card(store).id)
    expect(files.get(PAGE)).toBe(`${ORIGINAL}\nA newer line.\n`)
  })
})

describe('Insert into page', () => {
  it('proposes the answer at the end of the page and writes it only once accepted', async () => {
    const { store, files } = await setUp(answerSkill())
    store.send('/ask etags')
    await until(() => store.status === 'COMPLETED', 'the answer')
    const reply = store.messages.find((message) => message.kind === 'assistant' && message.text.startsWith('ETags name'))!
    await store.insertReply(reply.id)
    const insert = card(store)
    expect(insert.status).toBe('pending')
    expect(insert.proposal).toMatchObject({ kind: 'edit', path: PAGE, after: 'ETags name one version of a page.' })
    expect(files.get(PAGE)).toBe(ORIGINAL)

    store.decide(insert.id, { action: 'accept' })
    await until(() => files.get(PAGE) !== ORIGINAL, 'the write')
    expect(files.get(PAGE)).toBe(`${ORIGINAL}\nETags name one version of a page.\n`)
    await flush()
    expect(card(store).status).toBe('accepted')
    await store.undo(insert.id)
    expect(files.get(PAGE)).toBe(ORIGINAL)
  })

  it('a page changed while the author decided gets a conflict card; Re-apply adds the text to the new version', async () => {
    const { store, files } = await setUp(answerSkill())
    store.send('/ask etags')
    await until(() => store.status === 'COMPLETED', 'the answer')
    await store.insertReply(store.messages.find((message) => message.kind === 'assistant')!.id)
    files.set(PAGE, `${ORIGINAL}\nNewer.\n`)
    store.decide(card(store).id, { action: 'accept' })
    await until(() => store.messages.some((message) => message.kind === 'conflict'), 'the conflict card')
    expect(card(store).written).toBe('conflict')

    store.decide(store.messages.find((message) => message.kind === 'conflict')!.id, 'reapply')
    await until(() => files.get(PAGE)!.endsWith('ETags name one version of a page.\n'), 'the re-applied insert')
    expect(files.get(PAGE)).toBe(`${ORIGINAL}\nNewer.\n\nETags name one version of a page.\n`)
    expect(card(store).written).toBe('reapplied')
  })

  it('rejecting the insert leaves the page alone', async () => {
    const { store, files } = await setUp(answerSkill())
    store.send('/ask etags')
    await until(() => store.status === 'COMPLETED', 'the answer')
    await store.insertReply(store.messages.find((message) => message.kind === 'assistant')!.id)
    store.decide(card(store).id, { action: 'reject' })
    await flush()
    expect(card(store).status).toBe('rejected')
    expect(files.get(PAGE)).toBe(ORIGINAL)
  })
})
