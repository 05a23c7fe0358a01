import type { UserConfig } from 'vitepress'
import { devApiPlugin } from './dev-api-plugin.js'
import { resolveOptions, type MetaBlogOptions } from './options.js'
import type { Plugin } from './vite-types.js'

export type { MetaBlogOptions } from './options.js'
export type * from './protocol.js'

type ConfigInput<T> = T | (() => T | Promise<T>)

/** The Vite sub-plugins MetaBlog adds; the dev-only ones apply to `serve` alone. */
export function metablogPlugins(options: MetaBlogOptions = {}): Plugin[] {
  const resolved = resolveOptions(options)
  return [devApiPlugin(resolved)]
}

function extend<T extends UserConfig>(config: T, options: MetaBlogOptions): T {
  const vite = config.vite ?? {}
  return {
    ...config,
    vite: {
      ...vite,
      plugins: [...(vite.plugins ?? []), ...metablogPlugins(options)],
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
