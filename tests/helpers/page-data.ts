// A built page's `__pageData`, read back from its JS chunk as the browser would: VitePress ships it as
// `JSON.parse` of a string literal, which the bundler wrote in this build.
export function pageDataOfChunk(code: string, name = 'the chunk'): Record<string, unknown> {
  const literal = /JSON\.parse\(('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")\)/.exec(code)?.[1]
  if (!literal) throw new Error(`no page data in ${name}`)
  return JSON.parse(new Function(`return ${literal}`)() as string) as Record<string, unknown>
}
