// Random pages for the property test: a small pool of names, folders, titles and aliases, so that
// creating, renaming and deleting pages keeps colliding with names other pages link to.
import { createRandom, type Random } from '../../../bench/knowledge-synthetic-blog.js'

export { createRandom, type Random }

const BASENAMES = Array.from({ length: 40 }, (_, index) => `note-${index}`).concat(['index', 'overview', 'Read Me', '笔记', 'draft'])
const FOLDERS = ['', 'posts', 'notes', 'posts/deep', 'zh', 'Notes Two']
const TITLES = Array.from({ length: 30 }, (_, index) => `Title ${index}`).concat(['note-3', 'Overview', '知识图谱', 'Shared Title'])
const ALIASES = ['Alias A', 'alias b', 'note-7', 'Title 4', '别名']
const HEADINGS = ['Intro', 'Parsing the stream', '什么是双向链接', 'Details']

export function randomPath(random: Random): string {
  const folder = random.pick(FOLDERS)
  return `${folder ? `${folder}/` : ''}${random.pick(BASENAMES)}.md`
}

function randomName(random: Random, pagePath: () => string): string {
  switch (random.int(9)) {
    case 0:
    case 1:
      return random.pick(BASENAMES)
    case 2:
      return pagePath().replace(/\.md$/, '')
    case 3:
      return pagePath().split('/').slice(-2).join('/').replace(/\.md$/, '')
    case 4:
      return random.pick(TITLES)
    case 5:
      return random.pick(ALIASES)
    case 6:
      return random.pick(TITLES).toUpperCase()
    case 7:
      return `./${random.pick(BASENAMES)}`
    default:
      return `Missing ${random.int(10)}`
  }
}

function relative(from: string, to: string): string {
  const up = from.split('/').length - 1
  return `${up ? '../'.repeat(up) : './'}${to}`
}

function randomLink(random: Random, self: string, pagePath: () => string): string {
  const name = randomName(random, pagePath)
  switch (random.int(12)) {
    case 0:
      return `[[${name}|shown text]]`
    case 1:
      return `[[${name}#${random.pick(HEADINGS)}]]`
    case 2:
      return `[[#${random.pick(HEADINGS)}]]`
    case 3:
      return `![[${name}]]`
    case 4:
      return `[md link](${relative(self, pagePath())})`
    case 5:
      return `\`[[${name}]]\``
    case 6:
      return `![image](${relative(self, 'picture.png')}) ![[picture.png]]`
    default:
      return `[[${name}]]`
  }
}

/** A page's Markdown. `knownPaths` feeds path-style links so some of them resolve. */
export function randomContent(random: Random, self: string, knownPaths: string[]): string {
  const pagePath = () => (knownPaths.length && random.int(4) > 0 ? random.pick(knownPaths) : randomPath(random))
  const front: string[] = []
  if (random.int(3) > 0) front.push(`title: ${random.pick(TITLES)}`)
  if (random.int(4) === 0) front.push(`aliases: [${random.pick(ALIASES)}]`)
  if (random.int(5) === 0) front.push('draft: true')
  if (random.int(4) === 0) front.push(`order: ${random.int(4)}`)
  if (random.int(2) === 0) front.push(`date: 2026-0${1 + random.int(9)}-1${random.int(10)}`)
  const links = Array.from({ length: 2 + random.int(6) }, () => randomLink(random, self, pagePath))
  const lines = [
    ...(front.length ? ['---', ...front, '---', ''] : []),
    `# ${random.pick(TITLES)}`,
    '',
    `## ${random.pick(HEADINGS)}`,
    '',
    `Some prose with ${links.slice(0, 3).join(' and ')}.`,
    '',
    '| Topic | Link |',
    '| --- | --- |',
    `| row | [[${randomName(random, pagePath)}\\|label]] |`,
    '',
    '```md',
    `[[${randomName(random, pagePath)}]]`,
    '```',
    '',
    `More: ${links.slice(3).join(', ')}`,
    '',
  ]
  return lines.join('\n')
}
