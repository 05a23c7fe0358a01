import { describe, expect, it } from 'vitest'
import { wantsSavedDescription, withoutSaveClause } from '../../../../client/skills/save-request'

describe('wantsSavedDescription', () => {
  it('hears "save", "description", "保存" and "描述" in any of the texts', () => {
    expect(wantsSavedDescription('/summarize and save it')).toBe(true)
    expect(wantsSavedDescription('summarize this', 'use it as the description')).toBe(true)
    expect(wantsSavedDescription('总结这篇文章并保存')).toBe(true)
    expect(wantsSavedDescription('总结一下，写进描述')).toBe(true)
  })

  it('stays false for a plain summary request', () => {
    expect(wantsSavedDescription('summarize this post', undefined)).toBe(false)
    expect(wantsSavedDescription('总结这篇文章')).toBe(false)
    expect(wantsSavedDescription('summarize the post about savings')).toBe(false)
  })
})

describe('withoutSaveClause', () => {
  it('removes the save clause from a page phrase', () => {
    expect(withoutSaveClause('this post and save it as the description')).toBe('this post')
    expect(withoutSaveClause('the post about caching, then save')).toBe('the post about caching')
    expect(withoutSaveClause('posts/a.md as its description')).toBe('posts/a.md')
    expect(withoutSaveClause('这篇文章并保存为描述')).toBe('这篇文章')
    expect(withoutSaveClause('and save the description')).toBe('')
  })

  it('leaves a phrase without one alone', () => {
    expect(withoutSaveClause('the post about savings plans')).toBe('the post about savings plans')
  })
})
