import fs from 'node:fs/promises'
import path from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { DETAILS, OUTLINE, content, requestsContaining, sentences, until } from '../helpers/runtime.js'
import { startStudio, type Studio } from './harness.js'

let studio: Studio

beforeAll(async () => {
  studio = await startStudio()
})

afterEach(() => studio.fake.reset())

afterAll(async () => {
  await studio?.close()
})

const sidebar = () => studio.page.locator('.VPSidebar')
const progressText = () => studio.page.getByTestId('metablog-progress-text')

describe('an author in the browser', () => {
  it('writes a post: progress shows, the post appears in the sidebar without a reload, the file has front matter', async () => {
    const { page, fake } = studio
    await studio.visit('/posts/atomic-file-writes')
    await studio.markDocument()
    fake.enqueue({ ...OUTLINE, text: ['# HTTP Caching in Practice\n\n## Validators\n'] }, content(['# HTTP Caching in Practice\n\n', ...sentences(60)], 100), DETAILS)
    await studio.ask('write a post about HTTP caching')

    await progressText().filter({ hasText: /Step \d\/9/ }).waitFor()
    await sidebar().getByText('HTTP Caching in Practice (draft)').waitFor({ timeout: 15_000 })
    await progressText().filter({ hasText: 'Writing the content' }).waitFor()
    await studio.shot('1-write-progress')

    await page.getByTestId('metablog-message').filter({ hasText: /Saved.*HTTP Caching in Practice/ }).waitFor({ timeout: 20_000 })
    await sidebar().getByText('HTTP Caching in Practice', { exact: true }).waitFor()
    expect(await studio.stillSameDocument()).toBe(true)
    const post = await studio.frontMatter('posts/http-caching-in-practice.md')
    expect(post.data).toMatchObject({ title: 'HTTP Caching in Practice', tags: ['http', 'caching'], description: 'How ETags keep concurrent writes safe.' })
    expect(post.content).toContain('Sentence 59.')
    await studio.shot('1-write-done')
  })

  it('edits a selected paragraph: accept updates the page in place and the file; reject leaves it untouched', async () => {
    const { page, fake } = studio
    await studio.visit('/posts/understanding-etags')
    await studio.markDocument()
    const selectParagraph = (text: string) =>
      page.evaluate((wanted) => {
        const paragraph = [...document.querySelectorAll('.vp-doc p')].find((element) => element.textContent?.includes(wanted))!
        const range = document.createRange()
        range.selectNodeContents(paragraph)
        const selection = window.getSelection()!
        selection.removeAllRanges()
        selection.addRange(range)
        document.dispatchEvent(new Event('selectionchange'))
        return paragraph.textContent
      }, text)

    await selectParagraph('An ETag (entity tag)')
    await page.getByRole('button', { name: 'Ask MetaBlog' }).click()
    await page.getByTestId('metablog-selection').waitFor()
    fake.enqueue({ text: ['ETags ', 'fingerprint ', 'a version.'] })
    await studio.ask('make this more concise')
    const approval = page.getByTestId('metablog-approval').filter({ has: page.getByRole('button', { name: 'Accept' }) })
    await approval.getByTestId('metablog-diff').waitFor()
    await studio.shot('2-edit-diff')
    await approval.getByRole('button', { name: 'Accept' }).click()

    await page.locator('.vp-doc p', { hasText: 'ETags fingerprint a version.' }).waitFor({ timeout: 10_000 })
    expect(await studio.stillSameDocument()).toBe(true)
    expect(await studio.read('posts/understanding-etags.md')).toContain('ETags fingerprint a version.')
    await studio.shot('2-edit-accepted')

    const before = await studio.read('posts/understanding-etags.md')
    await selectParagraph('ETags fingerprint a version.')
    await page.getByRole('button', { name: 'Ask MetaBlog' }).click()
    fake.enqueue({ text: ['Something the author will not want.'] })
    await studio.ask('rewrite this')
    const second = page.getByTestId('metablog-approval').filter({ has: page.getByRole('button', { name: 'Reject' }) })
    await second.getByRole('button', { name: 'Reject' }).click()
    await page.getByTestId('metablog-approval').filter({ hasText: 'Something the author' }).and(page.locator('[data-status=rejected]')).waitFor()
    await page.getByTestId('metablog-message').filter({ hasText: 'Left the page unchanged' }).waitFor()
    expect(await studio.read('posts/understanding-etags.md')).toBe(before)
  })

  it('edits a paragraph that ends in a same-page heading link, and shows the change rendered, old words then new', async () => {
    const { page, fake } = studio
    await studio.visit('/posts/atomic-file-writes')
    await page.evaluate(() => {
      const paragraph = [...document.querySelectorAll('.vp-doc p')].find((element) => element.textContent?.startsWith('Any tool that rewrites'))!
      const range = document.createRange()
      range.selectNodeContents(paragraph)
      window.getSelection()!.removeAllRanges()
      window.getSelection()!.addRange(range)
      document.dispatchEvent(new Event('selectionchange'))
    })
    await page.getByRole('button', { name: 'Ask MetaBlog' }).click()
    await page.getByTestId('metablog-selection').waitFor()
    const rewrite = 'Any tool that rewrites files a person is also editing must answer one question: what if the process dies mid-write? With a naive `fs.writeFile` you may be left with a truncated file. This post shows the standard fix and explains [[#Why rename is atomic]].'
    fake.enqueue({ text: [rewrite] })
    await studio.ask('make this more concise')
    const approval = page.getByTestId('metablog-approval').filter({ has: page.getByRole('button', { name: 'Accept' }) })
    const diff = approval.getByTestId('metablog-diff')
    await diff.waitFor()
    // Rendered: the code span is code, the heading link is its text, and each change reads old then new.
    expect(await diff.locator('.hunk.rendered code').first().innerText()).toBe('fs.writeFile')
    expect(await diff.locator('.wiki-link').innerText()).toBe('Why rename is atomic')
    expect(await diff.locator('del').first().innerText()).toContain('human')
    expect(await diff.locator('ins').first().innerText()).toContain('person')
    expect(await diff.innerText()).not.toContain('[[')
    await diff.scrollIntoViewIfNeeded()
    await studio.shot('6-edit-diff-rendered')
    await page.setViewportSize({ width: 390, height: 844 })
    await diff.scrollIntoViewIfNeeded()
    await studio.shot('6-edit-diff-390')
    await page.setViewportSize({ width: 1280, height: 900 })
    await diff.getByRole('button', { name: 'Markdown' }).click()
    expect(await diff.locator('.hunk.source').innerText()).toContain('[[#Why rename is atomic]]')
    await studio.shot('6-edit-diff-source')
    await approval.getByRole('button', { name: 'Accept' }).click()
    await until(async () => (await studio.read('posts/atomic-file-writes.md')).includes(rewrite), 10_000, 'the edit on disk')
    const source = await studio.read('posts/atomic-file-writes.md')
    expect(source).toContain(rewrite)
    expect(source).toContain('title: Atomic file writes in Node.js')
    await page.getByTestId('metablog-progress').waitFor({ state: 'detached' })
  })

  it('shows the add-links change as the linked paragraph only, without the front matter', async () => {
    const { page } = studio
    const filler = Array.from({ length: 4 }, (_unused, index) => `Paragraph ${index + 1} says nothing about any other post.`).join('\n\n')
    await fs.writeFile(
      path.join(studio.root, 'notes/reading-list.md'),
      `---\ntitle: Reading list\ntags: [reading]\n---\n\n# Reading list\n\n${filler}\n\nStart with Understanding ETags and optimistic concurrency, then move on.\n\n${filler}\n`,
    )
    await studio.visit('/notes/reading-list')
    await studio.ask('link the unlinked mentions on this page')
    const approval = page.getByTestId('metablog-approval').filter({ has: page.getByRole('button', { name: 'Accept' }) })
    const diff = approval.getByTestId('metablog-diff')
    await diff.waitFor({ timeout: 15_000 })
    const text = await diff.innerText()
    expect(text).toContain('front matter unchanged')
    expect(text).toContain('1 link or formatting change')
    expect(text).not.toContain('title:')
    expect(text).not.toContain('Paragraph 2 says')
    expect(await diff.locator('ins.restyled .wiki-link').innerText()).toBe('Understanding ETags and optimistic concurrency')
    expect(await diff.locator('del').count()).toBe(0)
    await diff.scrollIntoViewIfNeeded()
    await studio.shot('7-add-links-diff')
    await page.evaluate(() => document.documentElement.classList.add('dark'))
    await studio.shot('7-add-links-diff-dark')
    await page.evaluate(() => document.documentElement.classList.remove('dark'))
    await approval.getByRole('button', { name: 'Reject' }).click()
    await page.getByTestId('metablog-message').filter({ hasText: 'Left the page without the new links' }).waitFor()
  })

  it('summarizes the current article as a stream', async () => {
    const { page, fake } = studio
    await studio.visit('/posts/streaming-llm-responses')
    fake.enqueue({ text: ['The post ', 'explains ', 'Server-Sent ', 'Events ', 'and how ', 'to parse ', 'them.'], chunkDelayMs: 250 })
    await studio.ask('summarize this article')
    // Read in the page at every frame: Playwright's own polling slows to one look every 500 ms.
    const partial = await (
      await page.waitForFunction(() => [...document.querySelectorAll('[data-testid="metablog-message"]')].map((message) => message.textContent ?? '').find((text) => text.includes('The post explains')))
    ).jsonValue()
    const reply = page.getByTestId('metablog-message').filter({ hasText: 'The post explains' })
    await reply.filter({ hasText: 'how to parse them.' }).waitFor()
    expect(partial).not.toContain('how to parse them.')
    // Let the task finish its bookkeeping before the next test reloads the page.
    await page.getByTestId('metablog-progress').waitFor({ state: 'detached' })
    expect(requestsContaining(fake, 'Streaming LLM responses')).toHaveLength(1)
    await studio.shot('4-summary')
  })

  it('stops a running draft within a second and leaves the page on disk whole', async () => {
    const { page, fake } = studio
    await studio.visit('/posts/atomic-file-writes')
    fake.enqueue({ ...OUTLINE, text: ['# Stopping Streams\n\n## Why\n'] }, content(['# Stopping Streams\n\n', ...sentences(500)], 30))
    await studio.ask('write a post about stopping streams')
    await progressText().filter({ hasText: 'Writing the content' }).waitFor({ timeout: 15_000 })
    await until(async () => (await studio.read('posts/stopping-streams.md').catch(() => '')).includes('Sentence 3.'), 10_000, 'text on disk')

    // Timed in the page, from the click to the button leaving it: Playwright's own click first waits
    // for the button to hold still for two frames, which a loaded machine can stretch past a second.
    const stop = await page.getByRole('button', { name: 'Stop' }).elementHandle()
    const stoppedInMs = await page.evaluate(
      (button) =>
        new Promise<number>((resolve) => {
          const started = performance.now()
          const observer = new MutationObserver(() => {
            if (button.isConnected) return
            observer.disconnect()
            resolve(performance.now() - started)
          })
          observer.observe(document.body, { childList: true, subtree: true })
          ;(button as HTMLElement).click()
        }),
      stop!,
    )
    expect(stoppedInMs).toBeLessThan(1000)
    await page.getByTestId('metablog-message').filter({ hasText: 'Stopped. The task is saved' }).waitFor()
    await studio.shot('5-stopped')

    const draft = await studio.frontMatter('posts/stopping-streams.md')
    expect(draft.data).toMatchObject({ title: 'Stopping Streams', draft: true })
    expect(draft.content).toMatch(/^\s*# Stopping Streams\n\n(Sentence \d+\. )+\n$/)
  })

  it('resumes a draft after the dev server dies: the error card\'s Retry resumes it, and no second outline request', async () => {
    const { page, fake } = studio
    await studio.visit('/notes/markdown-front-matter')
    fake.enqueue({ ...OUTLINE, text: ['# Crash Safe Writes\n\n## Why\n'] }, content(['# Crash Safe Writes\n\n', ...sentences(500)], 30))
    await studio.ask('write a post about crash safe writes')
    await until(async () => (await studio.read('posts/crash-safe-writes.md').catch(() => '')).includes('Sentence 20.'), 20_000, 'the draft to grow')

    await studio.killServer()
    await studio.restartServer()
    await studio.visit('/notes/markdown-front-matter')
    await studio.openPanel()
    // One place per failure: the error card offers the resume, the banner does not list it again.
    const failed = page.getByTestId('metablog-error').last()
    const retry = failed.getByRole('button', { name: 'Retry' })
    await retry.waitFor()
    const taskId = await failed.getAttribute('data-task-id')
    await studio.panelLoaded()
    expect(await page.locator(`[data-testid="metablog-resume-task"][data-task-id="${taskId}"]`).count()).toBe(0)
    await failed.scrollIntoViewIfNeeded()
    await studio.shot('3-resume-from-error-card')

    fake.enqueue(content(['Finished after the restart.\n']), DETAILS)
    await retry.click()

    await page.getByTestId('metablog-message').filter({ hasText: /Saved.*Crash Safe Writes/ }).waitFor({ timeout: 20_000 })
    const post = await studio.frontMatter('posts/crash-safe-writes.md')
    expect(post.data.draft).toBeUndefined()
    expect(post.content).toContain('Sentence 0. ')
    expect(post.content).toContain('Finished after the restart.')
    expect(requestsContaining(fake, 'Write an outline')).toHaveLength(1)
    await studio.shot('3-resumed')
  })

  it('raised no page errors', () => {
    expect(studio.pageErrors).toEqual([])
  })
})
