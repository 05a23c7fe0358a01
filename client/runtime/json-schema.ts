// The JSON Schema subset tool parameters use: object, required, type, string, integer, number,
// boolean, array, items, enum, minimum/maximum, minLength/maxLength, minItems/maxItems. Small on
// purpose: a model's arguments are checked against what we wrote, not against arbitrary schemas.
import { isRecord } from '../is-record'

export interface JsonSchema {
  type?: 'object' | 'string' | 'integer' | 'number' | 'boolean' | 'array'
  description?: string
  properties?: Record<string, JsonSchema>
  required?: readonly string[]
  additionalProperties?: boolean
  items?: JsonSchema
  enum?: readonly (string | number)[]
  minimum?: number
  maximum?: number
  minLength?: number
  maxLength?: number
  minItems?: number
  maxItems?: number
}

function typeOf(value: unknown): string {
  if (Array.isArray(value)) return 'array'
  if (value === null) return 'null'
  if (typeof value === 'number' && Number.isInteger(value)) return 'integer'
  return typeof value
}

function matchesType(schema: JsonSchema, value: unknown): boolean {
  const actual = typeOf(value)
  if (schema.type === 'number') return actual === 'number' || actual === 'integer'
  if (schema.type === 'object') return isRecord(value)
  return actual === schema.type
}

function describe(schema: JsonSchema): string {
  return schema.type === 'integer' ? 'a whole number' : schema.type === 'array' ? 'an array' : schema.type === 'object' ? 'an object' : `a ${schema.type}`
}

function checkBounds(schema: JsonSchema, value: unknown, at: string, problems: string[]): void {
  if (typeof value === 'number') {
    if (schema.minimum !== undefined && value < schema.minimum) problems.push(`${at} must be at least ${schema.minimum}`)
    if (schema.maximum !== undefined && value > schema.maximum) problems.push(`${at} must be at most ${schema.maximum}`)
  } else if (typeof value === 'string') {
    if (schema.minLength !== undefined && value.length < schema.minLength) problems.push(`${at} must have at least ${schema.minLength} characters`)
    if (schema.maxLength !== undefined && value.length > schema.maxLength) problems.push(`${at} must have at most ${schema.maxLength} characters`)
  } else if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems) problems.push(`${at} must have at least ${schema.minItems} items`)
    if (schema.maxItems !== undefined && value.length > schema.maxItems) problems.push(`${at} must have at most ${schema.maxItems} items`)
  }
}

function check(schema: JsonSchema, value: unknown, at: string, problems: string[]): void {
  if (schema.type && !matchesType(schema, value)) {
    problems.push(`${at} must be ${describe(schema)}, not ${typeOf(value)}`)
    return
  }
  if (schema.enum && !schema.enum.includes(value as string | number)) {
    problems.push(`${at} must be one of ${schema.enum.map((option) => JSON.stringify(option)).join(', ')}`)
    return
  }
  checkBounds(schema, value, at, problems)
  if (Array.isArray(value) && schema.items) {
    for (const [index, item] of value.entries()) check(schema.items, item, `${at}[${index}]`, problems)
  }
  if (isRecord(value) && schema.type === 'object') {
    const properties = schema.properties ?? {}
    for (const name of schema.required ?? []) if (!Object.hasOwn(value, name)) problems.push(`${at}.${name} is required`)
    for (const [name, item] of Object.entries(value)) {
      // Own properties only: a model may send "__proto__" or "constructor" as a name.
      if (Object.hasOwn(properties, name)) check(properties[name]!, item, `${at}.${name}`, problems)
      else if (schema.additionalProperties === false) problems.push(`${at}.${name} is not a known argument`)
    }
  }
}

/** Every way `value` breaks `schema`, as sentences naming the argument ("arguments.limit must be …"); empty when it fits. */
export function validateSchema(schema: JsonSchema, value: unknown, root = 'arguments'): string[] {
  const problems: string[] = []
  check(schema, value, root, problems)
  return problems
}
