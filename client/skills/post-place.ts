// Where a new post goes: the folder the author named, else the blog's folder for the request's
// language, else posts/; and a file name a reader can say, also for a Chinese title.
import slugify from 'slugify'
import type { PageSummary } from '../../plugin/protocol'

export type Language = 'zh' | 'ja' | 'ko' | 'en'

const DEFAULT_FOLDER = 'posts'
const MAX_SLUG_LENGTH = 60

/** The language a request is written in, from its script: kana → ja, Hangul → ko, Han → zh, else en. */
export function requestLanguage(text: string): Language {
  if (/[\p{Script=Hiragana}\p{Script=Katakana}]/u.test(text)) return 'ja'
  if (/\p{Script=Hangul}/u.test(text)) return 'ko'
  if (/\p{Script=Han}/u.test(text)) return 'zh'
  return 'en'
}

/** A folder name the author typed ("notes/", " notes "), as a clean relative folder, or undefined if it is not one. */
export function cleanFolder(folder: string): string | undefined {
  const clean = folder.trim().replace(/^\.?\/+|\/+$/g, '')
  if (clean === '' || !/^[\p{L}\p{N}_-]+(?:\/[\p{L}\p{N}_-]+)*$/u.test(clean)) return undefined
  return clean
}

/** The top-level folders of the blog's pages. */
function topFolders(pages: readonly Pick<PageSummary, 'path'>[]): string[] {
  return [...new Set(pages.map((page) => page.path.split('/')).filter((parts) => parts.length > 1).map((parts) => parts[0]!))]
}

/**
 * The folder for a new post: the one the author asked for; else, for a request not in English, the
 * blog's folder for that language (`zh/`, `zh-cn/`, … — VitePress's locale folders) when there is one;
 * else posts/.
 */
export function chooseFolder(pages: readonly Pick<PageSummary, 'path'>[], language: Language, asked?: string): string {
  const named = asked === undefined ? undefined : cleanFolder(asked)
  if (named !== undefined) return named
  if (language !== 'en') {
    const locale = new RegExp(`^${language}(?:[-_][a-z]+)?$`, 'i')
    const folder = topFolders(pages).find((name) => locale.test(name))
    if (folder !== undefined) return folder
  }
  return DEFAULT_FOLDER
}

/** A slug from Latin text: lowercase words joined by hyphens, at most 60 characters, never ending in one. */
function latinSlug(text: string): string {
  return slugify(text, { lower: true, strict: true }).slice(0, MAX_SLUG_LENGTH).replace(/-+$/, '')
}

/**
 * A readable file name for a title. Han characters become pinyin without tones ("缓存详解" →
 * "huan-cun-xiang-jie"): the blog's own Chinese posts have ASCII names (zh/knowledge-graph-backlinks.md),
 * and an ASCII name stays one readable URL instead of a row of %-escapes. pinyin-pro is loaded only
 * for a title that needs it. A title with nothing to spell (emoji, kana only) gets a dated name.
 */
export async function slugForTitle(title: string, now = new Date()): Promise<string> {
  let text = title
  if (/\p{Script=Han}/u.test(title)) {
    const { pinyin } = await import('pinyin-pro')
    // Each Han character is its own syllable; Latin words between them are kept whole.
    text = pinyin(title, { toneType: 'none', type: 'array', nonZh: 'consecutive', v: true }).join(' ')
  }
  const slug = latinSlug(text)
  return slug || `post-${now.toISOString().slice(0, 10)}-${now.getTime().toString(36).slice(-4)}`
}
