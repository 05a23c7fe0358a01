// YAML-only front matter for gray-matter: other engines refuse, and YAML that expands beyond reason throws.
import { MetaBlogError } from './errors.js'
import { grayMatter } from './gray-matter.js'

/** A YAML parser as gray-matter's engines take it. */
export type YamlParse = (text: string, options?: unknown) => unknown
interface Engine {
  parse: YamlParse
  stringify?: (...args: never[]) => string
}
export type EngineTable = Record<string, Engine | YamlParse>

/** More values than any real front matter holds; a YAML alias bomb passes it within microseconds. */
export const MAX_FRONT_MATTER_VALUES = 100_000

const HARDENED = Symbol.for('metablog.hardened-yaml')

/** Counts values the way JSON.stringify would visit them, shared references counted each time. */
function assertSmallExpansion(data: unknown): void {
  let visits = 0
  const pending: unknown[] = [data]
  while (pending.length > 0) {
    const value = pending.pop()
    if (++visits > MAX_FRONT_MATTER_VALUES) {
      throw new MetaBlogError(
        'ERR_UNSAFE_CONTENT',
        `Front matter refused: it expands to more than ${MAX_FRONT_MATTER_VALUES} values (YAML aliases such as *a repeat ` +
          'anchored values, so a few hundred bytes can expand to billions). Write the values out instead of using aliases.',
      )
    }
    if (value !== null && typeof value === 'object' && !(value instanceof Date)) pending.push(...Object.values(value))
  }
}

/** The YAML engine, refusing front matter whose aliases expand beyond reason. */
export function boundedYaml(parse: YamlParse): Engine {
  const engine = {
    parse(text: string, options?: unknown) {
      const data = parse(text, options)
      assertSmallExpansion(data)
      return data
    },
    [HARDENED]: true,
  }
  return engine
}

function refusedEngine(fence: string, why: string): Engine {
  return {
    parse() {
      throw new MetaBlogError(
        'ERR_UNSAFE_CONTENT',
        `Front matter "---${fence}" refused: MetaBlog accepts YAML front matter only (${why}). Start the page with a plain "---" line and write YAML.`,
      )
    },
  }
}

/**
 * Every engine gray-matter knows besides YAML, refusing. JavaScript would run the page as code;
 * JSON and CoffeeScript (not installed, but registrable) are refused too so every page has one syntax.
 */
export const REFUSED_ENGINES: Readonly<Record<string, Engine>> = {
  javascript: refusedEngine('js', 'a JavaScript block runs as code in the dev server and the build'),
  json: refusedEngine('json', 'one front matter syntax keeps pages readable by every tool'),
  coffee: refusedEngine('coffee', 'a CoffeeScript block would run as code'),
}

let ownYaml: YamlParse | undefined

/** gray-matter's own YAML engine (js-yaml's safe load), loading gray-matter with its first call (see gray-matter.ts). */
export function grayMatterYaml(): YamlParse {
  if (!ownYaml) {
    // gray-matter's types leave out the engines it exposes.
    const engine = (grayMatter() as unknown as { engines: EngineTable }).engines.yaml!
    ownYaml = typeof engine === 'function' ? engine : engine.parse.bind(engine)
  }
  return ownYaml
}

/**
 * Engines for VitePress's documented `markdown.frontmatter.grayMatterOptions.engines`. `yaml` names
 * the YAML parser to bound, asked for with each page (default: gray-matter's own).
 */
export function safeEngines(yaml: () => YamlParse = grayMatterYaml): Record<string, Engine> {
  return { ...REFUSED_ENGINES, yaml: boundedYaml((text, options) => yaml()(text, options)) }
}

/** Makes a gray-matter engine table YAML-only, in place; safe to call twice. */
export function hardenEngineTable(engines: EngineTable): void {
  const yaml = engines.yaml
  if (yaml && !(typeof yaml === 'object' && HARDENED in yaml)) {
    engines.yaml = boundedYaml(typeof yaml === 'function' ? yaml : yaml.parse.bind(yaml))
  }
  Object.assign(engines, REFUSED_ENGINES)
}
