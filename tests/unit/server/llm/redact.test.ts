import { describe, expect, it } from 'vitest'
import { redactSecrets } from '../../../../server/llm/errors.js'
import { REDACTED, SecretRedactor } from '../../../../server/llm/redact.js'
import { KEY_FORMS, base64 } from '../../../fixtures/key-forms.js'

const KEY = 'sk-metablog-unit-7f3a9c1e5b2d'
const redactor = new SecretRedactor([KEY])

describe('SecretRedactor', () => {
  it.each(Object.keys(KEY_FORMS))('removes the key %s, and only that', (name) => {
    const form = KEY_FORMS[name]!(KEY)
    const text = `upstream said: ${form} (end)`
    const clean = redactor.redact(text)
    expect(clean).not.toContain(form)
    expect(clean).toContain(REDACTED)
    expect(clean.startsWith('upstream said: ')).toBe(true)
    expect(clean.endsWith(' (end)')).toBe(true)
    expect(redactSecrets(text, [KEY])).not.toContain(form)
  })

  it('leaves text without the key exactly as it was, even near misses', () => {
    for (const text of ['plain words', 'sk-metablog-unit-7f3a9c1e5b2X', base64('sk-metablog-unit-0000000000'), [...'sk-metablog'].join(' '), '']) {
      expect(redactor.redact(text)).toBe(text)
    }
  })

  it('keeps a JSON body parseable when the key is inside one of its strings', () => {
    const body = JSON.stringify({ choices: [{ message: { content: `the key is ${[...KEY].join(' ')} and ${base64(`Bearer ${KEY}`)}` } }] })
    const clean = redactor.redact(body)
    expect(JSON.parse(clean).choices[0].message.content).toBe(`the key is ${REDACTED} and ${REDACTED}`)
  })

  it('ignores encoded forms of short secrets, which would match ordinary text', () => {
    const short = new SecretRedactor(['pw12'])
    expect(short.redact('p w 1 2 and pw12')).toBe(`p w 1 2 and ${REDACTED}`)
  })

  it('reads 2 MiB of base64 without the key in linear time', () => {
    const text = Buffer.alloc(1.5 * 1024 * 1024, 7).toString('base64')
    const started = performance.now()
    expect(redactor.redact(text)).toBe(text)
    expect(performance.now() - started).toBeLessThan(1_000)
  })
})
