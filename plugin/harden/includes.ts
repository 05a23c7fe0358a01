import fs from 'node:fs'
import path from 'node:path'
import { inertName, sourceRefusal } from './source-confinement.js'

// VitePress's own syntax (processIncludes): `<!--@include: path#region{from,to}-->`, anywhere in the raw source.
const INCLUDE = /<!--\s*@include:\s*(.*?)\s*-->/g
const REGION = /(#[\w-]+)/
const RANGE = /\{(\d*),(\d*)\}$/
// Deeper nesting than any real site; also stops include cycles.
const MAX_DEPTH = 16

/** The file an include names, resolved exactly as VitePress resolves it. */
export function includeTarget(sourceDir: string, fromFile: string, spec: string): string {
  let name = spec
  const region = REGION.exec(name)
  const range = RANGE.exec(name)
  const meta = (region?.[0].length ?? 0) + (range?.[0].length ?? 0)
  if (meta > 0) name = name.slice(0, -meta)
  if (name.startsWith('@')) return path.join(sourceDir, name.slice(name[1] === '/' ? 2 : 1))
  return path.join(path.dirname(fromFile), name)
}

/** Why an include (or one it includes in turn) may not be expanded, or null. */
function includeRefusal(sourceDir: string, fromFile: string, spec: string, depth: number): string | null {
  const target = includeTarget(sourceDir, fromFile, spec)
  const refusal = sourceRefusal(sourceDir, target)
  if (refusal) return refusal
  if (depth >= MAX_DEPTH) return `includes are nested more than ${MAX_DEPTH} deep`
  let content: string
  try {
    content = fs.readFileSync(target, 'utf8')
  } catch {
    return null
  }
  for (const [, nested] of content.matchAll(INCLUDE)) {
    if (!nested) continue
    const inner = includeRefusal(sourceDir, target, nested, depth + 1)
    if (inner) return `it includes "${inertName(nested)}": ${inner}`
  }
  return null
}

export interface ConfinedSource {
  source: string
  /** Each refused include, as written, with the reason. */
  refused: { spec: string; reason: string }[]
}

/**
 * Replaces every include VitePress may not expand with an inert comment naming it. Allowed ones
 * are left for VitePress, which then tracks them for hot updates as usual.
 */
export function confineIncludes(source: string, file: string, sourceDir: string): ConfinedSource {
  const refused: ConfinedSource['refused'] = []
  const confined = source.replace(INCLUDE, (directive, spec: string) => {
    if (!spec) return directive
    const reason = includeRefusal(sourceDir, file, spec, 0)
    if (!reason) return directive
    refused.push({ spec, reason })
    return `<!-- metablog refused the include "${inertName(spec)}": ${inertName(reason)} -->`
  })
  return { source: refused.length > 0 ? confined : source, refused }
}
