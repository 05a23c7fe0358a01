// Vite's types, taken through VitePress so the project never depends on a second copy of Vite.
import type { Plugin } from 'vitepress'

type ServerHook = Extract<NonNullable<Plugin['configureServer']>, (...args: never[]) => unknown>
export type ViteDevServer = Parameters<ServerHook>[0]
export type { Plugin }
