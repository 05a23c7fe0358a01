// The write, research and delete skills on a temp copy of the demo blog, through the real dev server
// and the real OpenAI client against the fake model: what lands on disk, what is searched, what is deleted.
import fs from 'node:fs/promises'
import path from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { deleteSkill } from '../../client/skills/delete.js'
import { researchSkill } from '../../client/skills/research.js'
import { writeSkill } from '../../client/skills/write.js'
import { startFakeLlm, type FakeLlm } from '../fixtures/fake-llm-server.js'
import { copySite, REPO_ROOT, startDevServer, type DevServer } from '../helpers/dev-server.js'
import { content, createTestRuntime, fakeModelEnv, pendingCard, until } from '../helpers/runtime.js'

let fake: FakeLlm
let dev: DevServer
const skills = [writeSkill, researchSkill, deleteSkill]
const usage = { prompt_tokens: 50, completion_tokens: 20 }
const details = { text: ['{"tags": ["caching"], "description": "One sentence."}'], usage }

beforeAll(async () => {
  fake = await startFakeLlm()
  // The fixture site's config takes the fake model; the demo blog's posts, notes and Chinese posts are copied in.
  const root = await copySite()
  for (const folder of ['posts', 'notes', 'zh']) await fs.cp(path.join(REPO_ROOT, 'docs', folder), path.join(root, folder), { recursive: true })
  dev = await startDevServer({ root, env: fakeModelEnv(fake) })
}, 90_000)

afterEach(() => {
  fake.reset()
  vi.restoreAllMocks()
})

afterAll(async () => {
  await dev?.close()
  await fake?.close()
})

const read = (page: string) => fs.readFile(path.join(dev.root, page), 'utf8')
const exists = (page: string) => fs.access(path.join(dev.root, page)).then(() => true, () => false)

describe('write: posts that look written', () => {
  it('puts the outline’s skeleton on disk when the model drops the title and every heading, and cases the title', async () => {
    const outline = { text: ['# offline first apps\n\n## Why offline first\nUsers lose the network.\n## Storing data locally\nIndexedDB.\n## Syncing changes\nQueues.\n'], usage }
    const body = 'Users lose the network on trains and in lifts.\n\nIndexedDB keeps data locally in the browser.\n\nSyncing changes needs a queue and a rule for conflicts.'
    fake.enqueue(outline, content([body]), details)
    const { runtime } = createTestRuntime(dev, { skills })
    const record = await runtime.processInput('write a post about offline first apps')
    expect(record?.outcome).toBe('COMPLETED')
    const page = await read('posts/offline-first-apps.md')
    expect(page).toMatch(/^---\ntitle: "Offline First Apps"\n/)
    expect(page).toContain(
      '# Offline First Apps\n\n## Why offline first\n\nUsers lose the network on trains and in lifts.\n\n## Storing data locally\n\nIndexedDB keeps data locally in the browser.\n\n## Syncing changes\n\nSyncing changes needs a queue',
    )
    // The page's title for VitePress's search and the sidebar is the post's, not "Related posts".
    const pages = (await dev.api('/pages')).json.pages as { path: string; title: string }[]
    expect(pages.find((entry) => entry.path === 'posts/offline-first-apps.md')?.title).toBe('Offline First Apps')
  })

  it('files a Chinese request in zh/ under a pinyin name, with related links to the Chinese posts', async () => {
    const outline = { text: ['# 缓存详解\n\n## 什么是缓存\n缓存的定义。\n## 流式输出中的缓存\n流式输出时的缓存。\n'], usage }
    const body = '# 缓存详解\n\n缓存是把数据放在更快的地方。\n\n流式输出时，缓存要小心处理。'
    fake.enqueue(outline, content([body]), details)
    const { runtime } = createTestRuntime(dev, { skills })
    const record = await runtime.processInput('写一篇关于缓存的文章')
    expect(record?.outcome).toBe('COMPLETED')
    const page = await read('zh/huan-cun-xiang-jie.md')
    expect(page).toMatch(/^---\ntitle: "缓存详解"\n/)
    expect(page).toContain('## 什么是缓存\n\n缓存是把数据放在更快的地方。\n\n## 流式输出中的缓存\n\n流式输出时，缓存要小心处理。')
    // Nothing on the blog says "缓存"; the outline's "流式输出中的缓存" finds the Chinese post on streaming.
    expect(page).toMatch(/\n## Related posts\n\n(?:- \[\[.+\]\]\n)*- \[\[zh\/llm-streaming-principles\|大语言模型流式输出的原理\]\]\n/)
    expect(await exists('posts/huan-cun-xiang-jie.md')).toBe(false)
  })
})

describe('research: the same passages with or without the slash, and sources', () => {
  it('retrieves the same passages for /research and the sentence, and ends the answer with its sources', async () => {
    const question = 'what have I written about backpressure?'
    fake.enqueue(content(['Backpressure slows the producer ([Debouncing, throttling and backpressure](/posts/debouncing-throttling-backpressure)).']), content(['The same answer.']))
    const { runtime, state } = createTestRuntime(dev, { skills })
    expect((await runtime.processInput(`/research ${question}`))?.outcome).toBe('COMPLETED')
    expect((await runtime.processInput(question))?.outcome).toBe('COMPLETED')
    const [slash, sentence] = fake.chatRequests.map((request) => String((request.body?.messages as { content: string }[]).at(-1)?.content))
    const passages = (prompt: string) => prompt.slice(prompt.indexOf('Passages:'))
    expect(passages(slash!)).toBe(passages(sentence!))
    expect(passages(slash!)).toContain('[Debouncing, throttling and backpressure](/posts/debouncing-throttling-backpressure)')
    expect(slash).toMatch(/^Question: what have I written about backpressure\?/)
    const replies = state.messages.filter((message) => message.kind === 'assistant' && message.text.includes('**Sources**'))
    expect(replies).toHaveLength(2)
    expect(replies[0]!.kind === 'assistant' && replies[0]!.text).toMatch(/\*\*Sources\*\*\n\n1\. \[Debouncing, throttling and backpressure\]\(\/posts\/debouncing-throttling-backpressure\)/)
  })

  it('ends a no-model answer with its sources too', async () => {
    const { runtime, state } = createTestRuntime(dev, { skills, llm: null })
    expect((await runtime.processInput('/research what have I written about backpressure?'))?.outcome).toBe('COMPLETED')
    const reply = state.messages.find((message) => message.kind === 'assistant' && message.text.includes('Search results'))
    expect(reply?.kind === 'assistant' && reply.text).toMatch(/\*\*Sources\*\*\n\n1\. \[[^\]]+\]\(\/posts\/debouncing-throttling-backpressure\)/)
  })
})

describe('delete: never a guess', () => {
  it('after a page is deleted, a request that names no page exactly lists candidates and sends no DELETE', async () => {
    const { runtime, state } = createTestRuntime(dev, { skills, llm: null })
    // The author deletes one page, by path, and confirms.
    const first = runtime.processInput('/delete posts/understanding-etags.md')
    const card = await until(() => pendingCard(state.messages, 'approval'), 10_000, 'the delete card')
    runtime.decide(card.id, { action: 'accept' })
    expect((await first)?.outcome).toBe('COMPLETED')
    expect(await exists('posts/understanding-etags.md')).toBe(false)

    const before = ((await dev.api('/pages')).json.pages as unknown[]).length
    const fetches = vi.spyOn(globalThis, 'fetch')
    const record = await runtime.processInput('delete the post about HTTP caching')
    expect(record?.outcome).toBe('COMPLETED')
    expect(fetches.mock.calls.filter(([url, init]) => init?.method === 'DELETE' && String(url).includes('/files'))).toEqual([])
    expect(state.messages.filter((message) => message.kind === 'approval')).toHaveLength(1)
    const note = state.messages.findLast((message) => message.kind === 'assistant')
    expect(note?.kind === 'assistant' && note.text).toMatch(/^No page is called exactly “HTTP caching”, so I deleted nothing\. Did you mean one of these\?\n\n- \[/)
    // Candidates are pages that exist; the one deleted a moment ago is not offered.
    expect(note?.kind === 'assistant' && note.text).not.toContain('posts/understanding-etags.md')
    expect(((await dev.api('/pages')).json.pages as unknown[]).length).toBe(before)
  })
})
