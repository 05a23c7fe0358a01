import { describe, expect, it } from 'vitest'
import { validateSchema, type JsonSchema } from '../../../../client/runtime/json-schema'

const schema: JsonSchema = {
  type: 'object',
  properties: {
    path: { type: 'string', minLength: 4 },
    limit: { type: 'integer', minimum: 1, maximum: 20 },
    order: { type: 'string', enum: ['new', 'old'] },
    edits: { type: 'array', minItems: 1, items: { type: 'object', properties: { oldText: { type: 'string' } }, required: ['oldText'] } },
  },
  required: ['path'],
}

describe('validateSchema', () => {
  it('accepts arguments that fit', () => {
    expect(validateSchema(schema, { path: 'a/b.md', limit: 3, order: 'new', edits: [{ oldText: 'x' }] })).toEqual([])
  })

  it('names every problem with its argument path', () => {
    expect(validateSchema(schema, { limit: 2.5, order: 'sideways', edits: [{ newText: 'y' }, 'no'] })).toEqual([
      'arguments.path is required',
      'arguments.limit must be a whole number, not number',
      'arguments.order must be one of "new", "old"',
      'arguments.edits[0].oldText is required',
      'arguments.edits[1] must be an object, not string',
    ])
  })

  it('checks bounds on numbers, strings and arrays', () => {
    expect(validateSchema(schema, { path: 'a', limit: 0, edits: [] })).toEqual([
      'arguments.path must have at least 4 characters',
      'arguments.limit must be at least 1',
      'arguments.edits must have at least 1 items',
    ])
    expect(validateSchema(schema, { path: 'long.md', limit: 21 })).toEqual(['arguments.limit must be at most 20'])
  })

  it('refuses a non-object, and ignores inherited names a model may send', () => {
    expect(validateSchema(schema, null)).toEqual(['arguments must be an object, not null'])
    expect(validateSchema(schema, ['x'])).toEqual(['arguments must be an object, not array'])
    expect(validateSchema(schema, JSON.parse('{"path": "a/b.md", "__proto__": 5, "constructor": 1}'))).toEqual([])
    expect(validateSchema({ ...schema, additionalProperties: false }, { path: 'a/b.md', toString: 1 })).toEqual(['arguments.toString is not a known argument'])
  })
})
