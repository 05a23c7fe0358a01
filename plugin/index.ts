import type { UserConfig } from 'vitepress'
import { clientDepsPlugin } from './client-deps-plugin.js'
import { devApiPlugin } from './dev-api-plugin.js'
import { knowledgePlugin } from './knowledge-plugin.js'
import { KnowledgeService } from './knowledge-service.js'
import { wikiLinkPlugin } from './markdown/wiki-link-rule.js'
import { AGENT_MAX_STEPS_DEFINE, resolveOptions, type MetaBlogOptions } from './options.js'

export type { MetaBlogOptions } from './options.js'
export type * from './protocol.js'

type ConfigInput<T> = T | (() => T | Promise<T>)

function extend<T extends UserConfig>(config: T, options: MetaBlogOptions): T {
  const resolved = resolveOptions(options)
  const knowledge = new KnowledgeService({ sidebar: resolved.sidebar })
  const markdown = config.markdown ?? {}
  const vite = config.vite ?? {}
  return {
    ...config,
    markdown: {
      ...markdown,
      async config(md) {
        await markdown.config?.(md)
        md.use(wikiLinkPlugin, { resolve: knowledge.resolve, base: config.base })
      },
    },
    vite: {
      ...vite,
      // The dev-only API applies to `serve` alone; the knowledge layer serves dev and build.
      plugins: [...(vite.plugins ?? []), devApiPlugin(resolved, knowledge), knowledgePlugin(knowledge), clientDepsPlugin()],
      define: { ...vite.define, [AGENT_MAX_STEPS_DEFINE]: JSON.stringify(resolved.agent.maxSteps) },
    },
  }
}

/**
 * Adds MetaBlog to a VitePress config, keeping everything the user configured.
 * Accepts an object, or a (possibly async) function returning one, like VitePress itself.
 */
export function withMetaBlog<T extends UserConfig>(config: T, options?: MetaBlogOptions): T
export function withMetaBlog<T extends UserConfig>(config: () => T | Promise<T>, options?: MetaBlogOptions): () => Promise<T>
export function withMetaBlog<T extends UserConfig>(config: ConfigInput<T>, options: MetaBlogOptions = {}): T | (() => Promise<T>) {
  if (typeof config === 'function') return async () => extend(await config(), options)
  return extend(config, options)
}
