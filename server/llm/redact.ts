// Finds an API key in text bound for a page or a log, in the forms a careless or hostile upstream
// may echo it: as is, spaced out or split by other separators, %-encoded, hex, or base64/base64url
// (alone, in `Bearer <key>`, in `Basic user:key`, at any byte offset of a longer base64 run).

export const REDACTED = '[redacted]'
// Shorter secrets (a URL's password "pw") would match everywhere once spaced out or encoded.
const MIN_ENCODED_FORMS_LENGTH = 8
const MIN_SECRET_LENGTH = 4
// Between two characters of a spaced-out key: up to three separators, plain or %-encoded.
const SEPARATOR = '(?:[^A-Za-z0-9%]|%[0-9A-Fa-f]{2}){0,3}'
const BASE64_CHARACTER = /[A-Za-z0-9+/_=-]/

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/** One character of the key as itself or %-encoded (any case of hex digits). */
function characterPattern(character: string): string {
  const encoded = [...Buffer.from(character)].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('')
  return `(?:${escapeRegExp(character)}|${encoded})`
}

/**
 * The part of base64(prefix of `offset` bytes + key) that depends on the key alone: the same
 * wherever the key sits in a longer run, once its offset modulo 3 is known.
 */
function base64Cores(key: Buffer): string[] {
  const cores = new Set<string>()
  for (let offset = 0; offset < 3; offset++) {
    const encoded = Buffer.concat([Buffer.alloc(offset), key]).toString('base64')
    const core = encoded.slice(Math.ceil((8 * offset) / 6), Math.floor((8 * (offset + key.length)) / 6))
    cores.add(core)
    cores.add(core.replace(/\+/g, '-').replace(/\//g, '_'))
  }
  return [...cores]
}

/** Replaces every whole base64 run that holds `core`; found with indexOf, so linear in the text. */
function redactRuns(text: string, core: string): string {
  let result = ''
  let copied = 0
  for (let found = text.indexOf(core); found !== -1; found = text.indexOf(core, found + core.length)) {
    let start = found
    while (start > copied && BASE64_CHARACTER.test(text[start - 1]!)) start--
    let end = found + core.length
    while (end < text.length && BASE64_CHARACTER.test(text[end]!)) end++
    result += text.slice(copied, start) + REDACTED
    copied = end
    found = end - core.length
  }
  return copied === 0 ? text : result + text.slice(copied)
}

/** Removes every form of a set of secrets from text; built once per set of secrets. */
export class SecretRedactor {
  private readonly exact: string[]
  private readonly spaced: RegExp[]
  private readonly cores: string[]

  constructor(secrets: readonly string[]) {
    // Longest first, so a secret that contains a shorter one is removed whole.
    this.exact = [...new Set(secrets)].filter((secret) => secret.length >= MIN_SECRET_LENGTH).sort((left, right) => right.length - left.length)
    const long = this.exact.filter((secret) => secret.length >= MIN_ENCODED_FORMS_LENGTH)
    this.spaced = long.map((secret) => new RegExp([...secret].map(characterPattern).join(SEPARATOR), 'gi'))
    this.cores = long.flatMap((secret) => {
      const bytes = Buffer.from(secret)
      return [...base64Cores(bytes), bytes.toString('hex'), bytes.toString('hex').toUpperCase()]
    })
  }

  /** The text without any form of the secrets; other text is left exactly as it was. */
  redact(text: string): string {
    let result = text
    for (const secret of this.exact) if (result.includes(secret)) result = result.split(secret).join(REDACTED)
    for (const pattern of this.spaced) result = result.replace(pattern, REDACTED)
    for (const core of this.cores) result = redactRuns(result, core)
    return result
  }
}

const redactors = new WeakMap<readonly string[], SecretRedactor>()

/** The redactor for a list of secrets, made once per list. */
export function redactorFor(secrets: readonly string[]): SecretRedactor {
  let redactor = redactors.get(secrets)
  if (!redactor) redactors.set(secrets, (redactor = new SecretRedactor(secrets)))
  return redactor
}
