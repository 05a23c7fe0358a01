import { describe, expect, it } from 'vitest'
import { titleCase } from '../../../../client/skills/title-case'

describe('titleCase', () => {
  it('cases an English topic as a title, small words lowercase inside it', () => {
    expect(titleCase('offline first apps')).toBe('Offline First Apps')
    expect(titleCase('a guide to the HTTP cache and its headers')).toBe('A Guide to the HTTP Cache and Its Headers')
    expect(titleCase('what to cache in')).toBe('What to Cache In')
    expect(titleCase('caching: a guide for the impatient')).toBe('Caching: A Guide for the Impatient')
  })

  it('keeps what the author cased on purpose, and capitalizes each part of a compound', () => {
    expect(titleCase('using iOS and ETags with JavaScript')).toBe('Using iOS and ETags with JavaScript')
    expect(titleCase('offline-first apps with vite.config.ts')).toBe('Offline-First Apps with vite.config.ts')
  })

  it('leaves Chinese, Japanese and Korean exactly as written, Latin words inside them too', () => {
    expect(titleCase('关于缓存的 http 头')).toBe('关于缓存的 http 头')
    expect(titleCase('キャッシュ入門')).toBe('キャッシュ入門')
  })

  it('only raises the first letter of a title in another Latin-script language', () => {
    expect(titleCase('über die straße und den weg')).toBe('Über die straße und den weg')
  })
})
