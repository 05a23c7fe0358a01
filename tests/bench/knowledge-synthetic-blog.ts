// A deterministic synthetic blog for the knowledge benchmarks: folders of posts with front matter,
// headings, prose (some Chinese), code fences, and 4–8 links per page in every supported form.

export interface SyntheticPage {
  path: string
  content: string
}

/** mulberry32: small, fast, and the same sequence for the same seed everywhere. */
export function createRandom(seed: number) {
  let state = seed >>> 0
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0
    let value = state
    value = Math.imul(value ^ (value >>> 15), value | 1)
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61)
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296
  }
  const int = (max: number) => Math.floor(next() * max)
  const pick = <T>(items: readonly T[]): T => items[int(items.length)]!
  return { next, int, pick }
}

export type Random = ReturnType<typeof createRandom>

const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'ru', 'ta', 'shi', 'vo', 'pe', 'da', 'zen', 'qua', 'bri', 'tor', 'lex', 'fin', 'gar', 'hol', 'wen', 'xis']
const HAN = '的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过子说产种面而方后多定行学法所民得经十三之进着等部度家电力里如水化高自二理起小物现实加量都两体制机当使点从业本去把性好应开它合还因由其些然前外天政四日那社义事平形相全表间样与关各重新线内数正心反你明看原又么利比或但质气第向道命此变条只没结解问意建月公无系军很情者最立代想已通并提直题党程展五果料象员革位入常文总次品式活设及管特件长求老头基资边流路级少图山统接知较将组见计别她手角期根论运农指几九区强放决西被干做必战先回则任取据处理府研'

function word(random: Random): string {
  let text = ''
  for (let index = 0, count = 1 + random.int(3); index < count; index++) text += random.pick(SYLLABLES)
  return text
}

function sentence(random: Random, words: number): string {
  const parts: string[] = []
  for (let index = 0; index < words; index++) parts.push(word(random))
  const text = parts.join(' ')
  return `${text[0]!.toUpperCase()}${text.slice(1)}.`
}

function chinese(random: Random, characters: number): string {
  let text = ''
  for (let index = 0; index < characters; index++) text += HAN[random.int(HAN.length)]
  return `${text}。`
}

interface PageName {
  path: string
  basename: string
  folder: string
  title: string
  alias?: string
  headings: string[]
}

/** Names for `count` pages: ~100 per folder, some nested, a few shared file names to exercise collisions. */
export function syntheticNames(count: number, seed = 1): PageName[] {
  const random = createRandom(seed)
  const names: PageName[] = []
  const folders = Math.max(1, Math.round(count / 100))
  for (let index = 0; index < count; index++) {
    const top = `topic-${String(index % folders).padStart(3, '0')}`
    const folder = index % 7 === 0 ? `${top}/deep` : top
    const basename = index % 53 === 0 ? 'overview' : `${word(random)}-${word(random)}-${index}`
    const title = `${sentence(random, 3).slice(0, -1)} ${index}`
    names.push({
      path: `${folder}/${basename}.md`,
      basename,
      folder,
      title,
      ...(index % 9 === 0 ? { alias: `Alias ${index} ${word(random)}` } : {}),
      headings: [`Section ${word(random)}`, `Details ${word(random)}`, `Notes ${word(random)}`],
    })
  }
  return names
}

function relativeLink(from: string, to: string): string {
  const fromParts = from.split('/').slice(0, -1)
  const toParts = to.split('/')
  let common = 0
  while (common < fromParts.length && common < toParts.length - 1 && fromParts[common] === toParts[common]) common++
  return `${'../'.repeat(fromParts.length - common) || './'}${toParts.slice(common).join('/')}`
}

function linkTo(random: Random, from: PageName, target: PageName): string {
  const kind = random.int(20)
  if (kind < 6) return `[[${target.basename}]]`
  if (kind < 9) return `[[${target.folder.split('/').at(-1)}/${target.basename}]]`
  if (kind < 12) return `[[${target.title}]]`
  if (kind < 14) return `[[${target.basename}#${random.pick(target.headings)}]]`
  if (kind < 16) return `[[${target.basename}|${word(random)} ${word(random)}]]`
  if (kind < 18) return `[${word(random)}](${relativeLink(from.path, target.path)})`
  if (kind < 19 && target.alias) return `[[${target.alias}]]`
  return `[[Missing topic ${random.int(500)}]]`
}

/** One page's Markdown; `variant` changes the prose and links without changing the page's names. */
export function syntheticContent(names: PageName[], index: number, variant = 0): string {
  const page = names[index]!
  const random = createRandom(index * 7919 + variant * 104729 + 17)
  const links: string[] = []
  for (let count = 4 + random.int(5), added = 0; added < count; added++) links.push(linkTo(random, page, random.pick(names)))
  const lines = [
    '---',
    `title: ${page.title}`,
    `date: 2026-${String(1 + (index % 12)).padStart(2, '0')}-${String(1 + (index % 28)).padStart(2, '0')}`,
    `tags: [${word(random)}, ${word(random)}]`,
    ...(page.alias ? [`aliases: [${page.alias}]`] : []),
    ...(index % 11 === 0 ? [`order: ${index % 5}`] : []),
    ...(index % 13 === 0 ? ['draft: true'] : []),
    `description: ${sentence(random, 10)}`,
    '---',
    '',
    `# ${page.title}`,
    '',
  ]
  page.headings.forEach((heading, section) => {
    lines.push(`## ${heading}`, '')
    for (let paragraph = 0; paragraph < 2; paragraph++) {
      const sentences = [sentence(random, 10 + random.int(10)), sentence(random, 8 + random.int(12)), sentence(random, 6 + random.int(10))]
      const link = links[section * 2 + paragraph]
      if (link) sentences.splice(1, 0, `See ${link} for more.`)
      lines.push(sentences.join(' '), '')
    }
    if (index % 10 === section) lines.push(chinese(random, 30 + random.int(40)), '')
    if (section === 1 && index % 4 === 0) lines.push('```ts', `const example = '[[${word(random)}]]' // not a link`, '```', '')
  })
  const rest = links.slice(page.headings.length * 2)
  if (rest.length) lines.push(`Related: ${rest.join(', ')}.`, '')
  return lines.join('\n')
}

export function syntheticBlog(count: number, seed = 1): { names: PageName[]; pages: SyntheticPage[] } {
  const names = syntheticNames(count, seed)
  return { names, pages: names.map((name, index) => ({ path: name.path, content: syntheticContent(names, index) })) }
}
