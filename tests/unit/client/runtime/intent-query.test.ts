import { describe, expect, it } from 'vitest'
import { IntentRouter } from '../../../../client/runtime/intent-router'
import { questionOf, retrievalQuery } from '../../../../client/runtime/intent-query'

describe('retrievalQuery', () => {
  it('cuts the command and the question’s frame, in English and Chinese', () => {
    expect(retrievalQuery('/research what have I written about backpressure?')).toBe('backpressure')
    expect(retrievalQuery('what have I written about backpressure?')).toBe('backpressure')
    expect(retrievalQuery('/ask which posts mention ETags?')).toBe('ETags')
    expect(retrievalQuery('please search my blog for wiki links')).toBe('wiki links')
    expect(retrievalQuery('tell me about debouncing in my posts')).toBe('debouncing')
    expect(retrievalQuery('我写过哪些关于知识图谱的文章？')).toBe('知识图谱')
    expect(retrievalQuery('/research 搜索一下关于流式输出的内容')).toBe('流式输出')
    expect(retrievalQuery('how do ETags work?')).toBe('ETags')
    expect(retrievalQuery('what is an ETag?')).toBe('ETag')
    expect(retrievalQuery('知识图谱是什么？')).toBe('知识图谱')
    expect(retrievalQuery('什么是双向链接')).toBe('双向链接')
  })

  it('is idempotent, and keeps the words of a question that is all frame', () => {
    expect(retrievalQuery('backpressure')).toBe('backpressure')
    expect(retrievalQuery(retrievalQuery('/search what did I write on caching?'))).toBe('caching')
    expect(retrievalQuery('what have I written?')).toBe('what have I written')
  })

  it('keeps the question as asked for the model, without the slash command', () => {
    expect(questionOf('/research what have I written about backpressure?')).toBe('what have I written about backpressure?')
  })
})

describe('the router searches for the same words whichever way the question comes', () => {
  const router = new IntentRouter()
  const query = (text: string) => router.parseLocally(text)?.params.query

  it('gives the slash command and the sentence the same query', () => {
    for (const question of ['what have I written about backpressure?', '我写过哪些关于知识图谱的文章', 'find posts about wiki links']) {
      expect(query(`/research ${question}`)).toBe(query(question))
    }
    expect(query('/research what have I written about backpressure?')).toBe('backpressure')
  })
})

describe('the folder a write request names', () => {
  const router = new IntentRouter()
  const params = (text: string) => router.parseLocally(text)?.params

  it('reads "in notes/", "in the notes folder", "放在 notes" and "放到notes目录下", and leaves the topic clean', () => {
    expect(params('write a post about offline first apps in notes/')).toMatchObject({ topic: 'offline first apps', folder: 'notes' })
    expect(params('/write caching strategies in the notes folder')).toMatchObject({ topic: 'caching strategies', folder: 'notes' })
    expect(params('写一篇关于缓存的文章，放在 notes')).toMatchObject({ topic: '缓存', folder: 'notes' })
    expect(params('写一篇关于缓存的文章放到notes目录下')).toMatchObject({ topic: '缓存', folder: 'notes' })
  })

  it('takes no folder from a topic that only has "in" in it', () => {
    expect(params('write a post about caching in Rust')).toEqual({ topic: 'caching in Rust' })
    expect(params('写一篇关于缓存的文章')).toEqual({ topic: '缓存' })
  })
})
