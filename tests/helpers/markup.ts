// Markup compared for what a browser makes of it: Vue's hydration comments out, each tag's attributes
// (a bare one as `name=""`) and class names in one order. Scoped-style attributes stay: they are what
// styles an element.
export function canonicalMarkup(html: string): string {
  return html
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<([a-z][\w-]*)((?:\s+[^\s=>]+(?:="[^"]*")?)*)\s*>/gi, (_, tag: string, attributes: string) => {
      const pairs = [...attributes.matchAll(/\s+([^\s=>]+)(?:="([^"]*)")?/g)].map(([, name, value = '']) => {
        const canonical = name === 'class' ? value.split(/\s+/).filter(Boolean).sort().join(' ') : value
        return `${name}="${canonical}"`
      })
      return `<${tag}${pairs.sort().map((pair) => ` ${pair}`).join('')}>`
    })
}
