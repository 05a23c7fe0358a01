// An esbuild plugin that compiles MetaBlog's own single-file components as a production build of
// @vitejs/plugin-vue would: `<script setup>` with its template inlined, scoped styles under the same
// `data-v-` id. (unplugin-vue, the maintained port, needs Node 22 and Vite 8.) Only what our
// components use: a `<script setup>`, a template, plain or scoped CSS; anything else is refused.
import { createHash } from 'node:crypto'
import fs from 'node:fs/promises'
import path from 'node:path'
import { compileScript, compileStyle, parse } from 'vue/compiler-sfc'

const STYLE_SUFFIX = '.style.css'

/** @param {string} root the folder an SFC's id is taken relative to, so ids do not depend on the machine */
export function vueSfc(root) {
  /** Each component's compiled CSS, by the component's path. */
  const styles = new Map()
  return {
    name: 'metablog:vue-sfc',
    setup(build) {
      build.onLoad({ filter: /\.vue$/ }, async ({ path: file }) => {
        const { descriptor, errors } = parse(await fs.readFile(file, 'utf8'), { filename: file })
        if (errors.length) throw errors[0]
        if (!descriptor.scriptSetup || descriptor.script || descriptor.styles.some((style) => style.lang || style.module || style.src))
          throw new Error(`${file}: only a <script setup> component with plain CSS is supported here`)
        const id = createHash('sha256').update(path.relative(root, file).replace(/\\/g, '/')).digest('hex').slice(0, 8)
        const scoped = descriptor.styles.some((style) => style.scoped)
        const script = compileScript(descriptor, { id, isProd: true, inlineTemplate: true, genDefaultAs: '__component__' })
        let code = `${script.content}\n`
        if (scoped) code += `__component__.__scopeId = "data-v-${id}"\n`
        code += 'export default __component__\n'
        const css = descriptor.styles.map((style) => {
          const compiled = compileStyle({ source: style.content, filename: file, id: `data-v-${id}`, scoped: style.scoped, isProd: true })
          if (compiled.errors.length) throw compiled.errors[0]
          return compiled.code
        })
        if (css.length) {
          styles.set(file, css.join('\n'))
          code = `import ${JSON.stringify(file + STYLE_SUFFIX)}\n${code}`
        }
        return { contents: code, loader: script.lang === 'ts' ? 'ts' : 'js', resolveDir: path.dirname(file) }
      })
      build.onResolve({ filter: /\.vue\.style\.css$/ }, ({ path: file }) => ({ path: file, namespace: 'vue-style' }))
      build.onLoad({ filter: /.*/, namespace: 'vue-style' }, ({ path: file }) => ({ contents: styles.get(file.slice(0, -STYLE_SUFFIX.length)), loader: 'css' }))
    },
  }
}
