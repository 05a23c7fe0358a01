import fs from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REPO_ROOT, startDevServer, type DevServer } from '../helpers/dev-server.js'
import { until } from '../helpers/runtime.js'

const VAULT = path.join(REPO_ROOT, 'tests/fixtures/vault')
const PAGE = '/Bases/Introduction to Bases.md'

let dev: DevServer
let hmr: Awaited<ReturnType<DevServer['listen']>>

beforeAll(async () => {
  dev = await startDevServer({ site: VAULT, env: { METABLOG_TEST_NO_PREBUNDLE: '1' } })
  hmr = await dev.listen()
}, 60_000)

afterAll(async () => {
  hmr?.close()
  await dev?.close()
})

/** The page as the dev server compiles it right now (what the browser imports). */
const pageModule = async () => (await dev.server.transformRequest(PAGE))?.code ?? ''
const unresolved = async () =>
  ((await dev.api('/graph')).json.unresolved as { source: string; target: string; kind?: string }[]).map((link) => `${link.source} → ${link.target} (${link.kind ?? 'page'})`)
const MISSING = 'Bases/Introduction to Bases.md → missing-chart.png (attachment)'

describe('attachments on the live dev server', () => {
  it('shows the missing attachment as a marker, listed in the graph, while found ones are served', async () => {
    const code = await pageModule()
    expect(code).toContain('data-target=\\"missing-chart.png\\"')
    expect(code).toContain('/Attachments/bases-noshadow.png')
    expect(code).not.toMatch(/import \w+ from "\/Attachments/)
    expect(await unresolved()).toEqual([MISSING])
    const image = await fetch(`${dev.origin}/Attachments/bases-noshadow.png`)
    expect(image.status).toBe(200)
    expect(Buffer.from(await image.arrayBuffer()).equals(await fs.readFile(path.join(VAULT, 'Attachments/bases-noshadow.png')))).toBe(true)
    // A name with a quote, CJK and brackets is served under its %-encoded path.
    const daily = (await dev.server.transformRequest('/Notes/Daily/2024-01-01.md'))?.code ?? ''
    expect(daily).toContain('/Attachments/Bob%27s%20%E5%9B%BE%E8%A1%A8%20%281%29.png')
    const quoted = await fetch(`${dev.origin}/Attachments/Bob%27s%20%E5%9B%BE%E8%A1%A8%20%281%29.png`)
    expect(Buffer.from(await quoted.arrayBuffer()).equals(await fs.readFile(path.join(VAULT, "Attachments/Bob's 图表 (1).png")))).toBe(true)
  })

  it('turns the marker into an image when the file is added, follows a rename, and shows the marker again when it is removed, without a restart', async () => {
    const since = hmr.messages.length
    const file = path.join(dev.root, 'Attachments/charts/missing-chart.png')
    await fs.mkdir(path.dirname(file), { recursive: true })
    await fs.copyFile(path.join(VAULT, 'Attachments/bases-noshadow.png'), file)
    await until(async () => !(await unresolved()).includes(MISSING), 15_000, 'the attachment to be indexed')
    // The page that embeds it is sent to the browser again, re-rendered with the image.
    await until(() => hmr.messages.slice(since).some((message) => message.type === 'update' && JSON.stringify(message).includes('Introduction')), 10_000, 'a page update')
    const code = await pageModule()
    // The src is bound to a string, never an asset import: the file is served as it is.
    expect(code).not.toContain('missing-chart.png\\" yet')
    expect(code).not.toContain('missing-chart.png?import')
    // Quotes and their escapes dropped: the template string nests them two levels deep.
    expect(code.replace(/[\\"']/g, '')).toMatch(/<img width=400 src=\/Attachments\/charts\/missing-chart\.png alt=missing-chart\.png/)
    expect((await fetch(`${dev.origin}/Attachments/charts/missing-chart.png`)).status).toBe(200)

    // A rename is a removal and an addition: the page follows the file to its new folder.
    const renamed = path.join(dev.root, 'Attachments/archive/missing-chart.png')
    await fs.mkdir(path.dirname(renamed), { recursive: true })
    await fs.rename(file, renamed)
    await until(async () => (await pageModule()).includes('/Attachments/archive/missing-chart.png'), 15_000, 'the page to follow the rename')
    expect(await unresolved()).not.toContain(MISSING)

    await fs.rm(renamed)
    await until(async () => (await unresolved()).includes(MISSING), 15_000, 'the attachment to leave the index')
    await until(async () => (await pageModule()).includes('data-target=\\"missing-chart.png\\"'), 10_000, 'the marker to come back')
  })

  it('never restarted or fully reloaded the page', () => {
    expect(hmr.messages.filter((message) => message.type === 'full-reload')).toEqual([])
  })
})
