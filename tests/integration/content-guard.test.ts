import fs from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hashContent } from '../../server/hash.js'
import { hostileClasses, instantiate } from '../fixtures/hostile/index.js'
import { makeTempDir, startDevServer, type DevServer } from '../helpers/dev-server.js'

let dev: DevServer
let markDir: string
const MARKER = 'metablog_guard_mark'

beforeAll(async () => {
  dev = await startDevServer()
  markDir = await makeTempDir('mark')
}, 60_000)

afterAll(async () => {
  await dev?.close()
  await fs.rm(markDir, { recursive: true, force: true })
})

const put = (page: string, content: string, precondition: Record<string, string>) =>
  dev.api('/files', { method: 'PUT', json: { path: page, content }, headers: precondition })

function payload(id: string): string {
  const found = hostileClasses.flatMap((hostile) => hostile.payloads).find((item) => item.id === id)
  if (!found) throw new Error(`no payload ${id}`)
  return instantiate(found.text, { marker: MARKER, markDir })
}

describe('PUT /files through the content guard', () => {
  it('refuses ---js front matter with 422 ERR_UNSAFE_CONTENT, writes nothing, and runs nothing', async () => {
    const response = await put('posts/js-front-matter.md', payload('fm_js'), { 'If-None-Match': '*' })
    expect(response.status).toBe(422)
    expect(response.json.error).toMatchObject({ code: 'ERR_UNSAFE_CONTENT', line: 1, construct: 'front-matter-engine' })
    expect(response.json.error.message).toMatch(/line 1: front matter must be YAML; found `---js`/)
    await expect(fs.access(path.join(dev.root, 'posts/js-front-matter.md'))).rejects.toThrow()
    // The page was never created, so asking the dev server for it cannot run its front matter.
    await fetch(`${dev.origin}/posts/js-front-matter.html`)
    await expect(fs.access(path.join(markDir, MARKER))).rejects.toThrow()
  })

  it('stores a hostile page inert, answering the stored hash and what was neutralized', async () => {
    const text = [payload('fence_title_img'), payload('html_img_onerror'), payload('mustache_plain')].join('\n')
    const response = await put('posts/hostile.md', text, { 'If-None-Match': '*' })
    expect(response.status).toBe(201)
    const onDisk = await fs.readFile(path.join(dev.root, 'posts/hostile.md'), 'utf8')
    expect(response.json.hash).toBe(hashContent(onDisk))
    expect(response.headers.get('etag')).toBe(`"${hashContent(onDisk)}"`)
    expect(response.json.neutralized).toEqual([
      { line: 2, construct: 'fence-info' },
      { line: 7, construct: 'html' },
      { line: 9, construct: 'interpolation' },
    ])
    expect(onDisk).not.toMatch(/<img|\{\{|\[<img/)
    const read = await dev.api('/files?path=posts/hostile.md')
    expect(read.json.content).toBe(onDisk)
  })

  it('an update keeps the author’s own <div v-pre> and {{ }} byte for byte and judges only the new text', async () => {
    const author = '# Notes\n\n<div v-pre>\n{{ raw.author.template }}\n</div>\n\nThe author’s {{ 1 + 1 }} paragraph.\n'
    const file = path.join(dev.root, 'posts/author-notes.md')
    await fs.writeFile(file, author) // written in the author's own editor, not through the API
    const { json: current } = await dev.api('/files?path=posts/author-notes.md')
    const response = await put('posts/author-notes.md', `${author}\n${payload('vue_click')}`, { 'If-Match': `"${current.hash}"` })
    expect(response.status).toBe(200)
    const onDisk = await fs.readFile(file, 'utf8')
    expect(onDisk.startsWith(author)).toBe(true)
    expect(onDisk.slice(author.length)).toMatch(/^\n&lt;button @click=/)
    expect(response.json.neutralized).toEqual([{ line: 9, construct: 'html' }])
  })

  it('a refused update leaves the page as it was', async () => {
    const { json: current } = await dev.api('/files?path=posts/author-notes.md')
    const response = await put('posts/author-notes.md', `${current.content}\n<!--@include: ../.env-->\n`, { 'If-Match': `"${current.hash}"` })
    expect(response.status).toBe(422)
    expect(response.json.error).toMatchObject({ code: 'ERR_UNSAFE_CONTENT', construct: 'include' })
    expect(await fs.readFile(path.join(dev.root, 'posts/author-notes.md'), 'utf8')).toBe(current.content)
  })
})
