import fs from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import {
  ALLOWED_SNIPPET,
  ALLOWED_TEXT,
  aliasBomb,
  CANARY,
  HIDDEN_CANARY,
  javascriptFrontMatter,
  OUTSIDE_CANARY,
  outsideFolder,
  TEMPLATE_TITLE,
  writeHostileSite,
} from '../fixtures/hardening/hostile-site.js'
import { copySite, startDevServer, type DevServer } from '../helpers/dev-server.js'

let dev: DevServer
const markers = ['__metablogJsRan', '__metablogJavascriptRan', '__metablogIncludedJsRan', '__metablogEditorJsRan'] as const
const globals = globalThis as Record<string, unknown>

beforeAll(async () => {
  const root = await copySite()
  await writeHostileSite(root)
  await fs.mkdir(path.join(root, 'front'))
  await fs.writeFile(path.join(root, 'front/js.md'), javascriptFrontMatter('js', markers[0]))
  await fs.writeFile(path.join(root, 'front/javascript.md'), javascriptFrontMatter('javascript', markers[1]))
  await fs.writeFile(path.join(root, 'front/json.md'), '---json\n{ "title": "JSON page" }\n---\n\n# JSON\n')
  await fs.writeFile(path.join(root, 'front/bomb.md'), aliasBomb())
  // An allowed include of a page whose front matter is JavaScript: VitePress strips it with gray-matter.
  await fs.writeFile(path.join(root, 'partials/js-front.md'), javascriptFrontMatter('js', markers[2]))
  await fs.writeFile(path.join(root, 'front/includes-js.md'), '# Includes JS\n\n<!--@include: ../partials/js-front.md-->\n')
  dev = await startDevServer({ root })
}, 60_000)

afterAll(async () => {
  await dev?.close()
  if (dev) await fs.rm(outsideFolder(dev.root), { recursive: true, force: true })
  for (const marker of markers) delete globals[marker]
})

/** The page as the browser's module loader gets it from the dev server. */
async function pageModule(route: string): Promise<{ status: number; text: string }> {
  const response = await fetch(`${dev.origin}${route}?import`)
  return { status: response.status, text: await response.text() }
}

function expectNoSecret(text: string): void {
  expect(text).not.toContain(CANARY)
  expect(text).not.toContain(OUTSIDE_CANARY)
  expect(text).not.toContain(HIDDEN_CANARY)
}

describe('includes and snippets stay inside the source folder', () => {
  it('refuses .env, dot-folders, node_modules, paths and symlinks out, and nested includes, naming each', async () => {
    const page = await pageModule('/leaks/includes.md')
    expect(page.status).toBe(200)
    expectNoSecret(page.text)
    for (const name of ['../.env', '@/.env', `../../${path.basename(outsideFolder(dev.root))}/secret.md`, '../.vitepress/hidden.md', '../node_modules/some-package/readme.md', '../partials/link-out.txt', '../partials/nested.md']) {
      expect(page.text).toContain(`metablog refused the include \\"${name}\\"`)
    }
    // Inside code too, where VitePress would have expanded it all the same.
    expect(page.text).toContain('&lt;!-- metablog refused the include &quot;../.env&quot;')
  })

  it('still expands an include inside the source folder', async () => {
    expect((await pageModule('/leaks/includes.md')).text).toContain(ALLOWED_TEXT)
  })

  it('refuses <<< snippets of dotfiles and files outside, and keeps an allowed one', async () => {
    const page = await pageModule('/leaks/snippets.md')
    expect(page.status).toBe(200)
    expectNoSecret(page.text)
    expect(page.text.match(/MetaBlog refused the code snippet/g)?.length).toBe(4)
    expect(page.text).toContain(ALLOWED_SNIPPET)
  })

  it('checks again when the author edits a page in their editor', async () => {
    const file = path.join(dev.root, 'leaks/edited.md')
    await fs.writeFile(file, '# Edited\n\nFine.\n')
    expect((await pageModule('/leaks/edited.md')).text).toContain('Fine.')
    await fs.writeFile(file, '# Edited\n\n<!--@include: ../.env-->\n')
    await expect.poll(async () => (await pageModule('/leaks/edited.md')).text, { timeout: 10_000 }).toContain('metablog refused the include')
    expectNoSecret((await pageModule('/leaks/edited.md')).text)
  })
})

describe('front matter is YAML only', () => {
  it.each(['js', 'javascript'])('refuses ---%s with a clear error and runs none of it', async (fence) => {
    const page = await pageModule(`/front/${fence}.md`)
    expect(page.status).toBe(500)
    expect(page.text).toContain('MetaBlog accepts YAML front matter only')
    for (const marker of markers) expect(globals[marker], marker).toBeUndefined()
  })

  it('refuses ---json too, so every page has one front matter syntax', async () => {
    const page = await pageModule('/front/json.md')
    expect(page.status).toBe(500)
    expect(page.text).toMatch(/---json\\?" refused: MetaBlog accepts YAML front matter only/)
  })

  it('runs no JavaScript front matter of an included page', async () => {
    const page = await pageModule('/front/includes-js.md')
    expect(page.status).toBe(200)
    expect(globals[markers[2]]).toBeUndefined()
  })

  it('refuses ---js written later in an editor, while the server runs', async () => {
    const file = path.join(dev.root, 'front/editor.md')
    await fs.writeFile(file, '# Editor page\n')
    expect((await pageModule('/front/editor.md')).status).toBe(200)
    await fs.writeFile(file, javascriptFrontMatter('js', markers[3]))
    await expect.poll(async () => (await pageModule('/front/editor.md')).status, { timeout: 10_000 }).toBe(500)
    expect(globals[markers[3]]).toBeUndefined()
  })

  it('answers a YAML alias bomb fast with an error, and keeps answering other requests', async () => {
    const started = Date.now()
    const [bomb, other] = await Promise.all([pageModule('/front/bomb.md'), pageModule('/guide/index.md')])
    expect(Date.now() - started).toBeLessThan(3_000)
    expect(bomb.status).toBe(500)
    expect(bomb.text).toContain('expands to more than')
    expect(other.status).toBe(200)
    const again = Date.now()
    expect((await fetch(`${dev.origin}/`)).status).toBe(200)
    expect(Date.now() - again).toBeLessThan(2_000)
  })
})

describe('wiki-link titles are text, never template code', () => {
  it('compiles an embedded title with {{ }} as a literal string', async () => {
    const page = await pageModule('/titles/embed.md')
    expect(page.status).toBe(200)
    expect(page.text).not.toContain('_ctx.constructor')
    expect(page.text).not.toContain('_toDisplayString')
    expect(page.text).toContain(JSON.stringify(TEMPLATE_TITLE))
  })
})

describe('the dev server answers only its own origin', () => {
  const foreign = 'http://127.0.0.1:1'

  it.each(['/', '/@vite/client', '/guide/index.md?import'])('sends no CORS header to another local origin for %s', async (route) => {
    const response = await fetch(`${dev.origin}${route}`, { headers: { Origin: foreign } })
    expect(response.headers.get('access-control-allow-origin')).toBeNull()
    const preflight = await fetch(`${dev.origin}${route}`, {
      method: 'OPTIONS',
      headers: { Origin: foreign, 'Access-Control-Request-Method': 'GET' },
    })
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull()
  })

  function connect(query: string): Promise<'open' | number> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(`ws://127.0.0.1:${dev.port}/${query}`, 'vite-hmr', { headers: { Origin: foreign } })
      socket.once('open', () => {
        socket.close()
        resolve('open')
      })
      socket.once('unexpected-response', (_request, response) => {
        resolve(response.statusCode ?? 0)
        socket.terminate()
      })
      socket.once('error', reject)
    })
  }

  it('refuses an HMR websocket from another origin without the token only /@vite/client holds', async () => {
    expect(await connect('')).toBe(400)
    expect(await connect('?token=guessed')).toBe(400)
  })

  it('still delivers metablog: events to its own page', async () => {
    const listener = await dev.listen()
    await fs.writeFile(path.join(dev.root, 'guide/event.md'), '# Event\n')
    await listener.waitFor((event) => event.event === 'metablog:file-changed' && event.data.path === 'guide/event.md', 10_000)
    listener.close()
  })
})
