import fs from 'node:fs/promises'
import path from 'node:path'
import type { SiteConfig } from 'vitepress'
import { watchAttachments } from './attachment-watch.js'
import { graphAsset } from './graph-asset.js'
import type { KnowledgeService } from './knowledge-service.js'
import { BACKLINKS_DEFINE } from './options.js'
import { createGraphSlices } from './page-knowledge.js'
import { shipPageKnowledge, type PageKnowledge } from './protocol.js'
import { sidebarListMiddleware } from './sidebar-list-middleware.js'
import { devSidebarSource, moreLabel } from '../server/knowledge/sidebar-window.js'
import { createSidebarShipment, pageSection, type SidebarShipment } from './sidebar-shipment.js'
import { GRAPH_MODULE_ID, RESOLVED_GRAPH_MODULE_ID } from './virtual-modules.js'
import type { Plugin } from './vite-types.js'

/** What a build ships for the reading features, worked out once for both of its bundles. */
interface BuildShipment {
  asset: { fileName: string; source: string }
  slices: ReturnType<typeof createGraphSlices>
  sidebar: SidebarShipment | undefined
}

const wrapped = new WeakSet<SiteConfig>()

/**
 * Loads the knowledge index before any page renders, sets the sidebar, serves the graph module,
 * keeps attachments live in dev and ships the linked ones with a build. A build ships no whole-site
 * data to every page: each page's data carries its sidebar section and its links; the graph page
 * fetches the whole graph as a JSON asset.
 */
export function knowledgePlugin(knowledge: KnowledgeService): Plugin {
  let shipment: BuildShipment | null = null
  let backlinks = true

  /** The page's own section of the generated sidebar, windowed: from the build's shipment, or live in dev. */
  function pageSidebar(relativePath: string): PageKnowledge['sidebar'] {
    if (shipment) return shipment.sidebar?.section(relativePath)
    const sections = knowledge.sidebarSections
    return sections && pageSection(sections, relativePath, { source: devSidebarSource, label: moreLabel(knowledge.siteLang) })
  }

  function pageKnowledge(pageData: { relativePath: string; frontmatter: Record<string, unknown> }): PageKnowledge | undefined {
    const sidebar = pageSidebar(pageData.relativePath)
    if (!shipment) return sidebar ? { sidebar } : undefined
    const wanted = backlinks && pageData.frontmatter.backlinks !== false && pageData.frontmatter.layout !== 'home'
    const links = wanted ? shipment.slices(pageData.relativePath) : undefined
    return sidebar || links ? { ...(sidebar ? { sidebar } : {}), ...(links ? { links } : {}) } : undefined
  }

  return {
    name: 'metablog:knowledge',
    async configResolved(config) {
      const site = (config as { vitepress?: SiteConfig }).vitepress
      if (!site) return
      await knowledge.load(site, config.command)
      if (config.command === 'build') {
        backlinks = (JSON.parse(String(config.define?.[BACKLINKS_DEFINE] ?? '{"enabled":true}')) as { enabled: boolean }).enabled
        if (!shipment) {
          const graph = knowledge.index.graph({ includeDrafts: false })
          const sections = knowledge.sidebarSections
          shipment = { asset: graphAsset(graph, site.assetsDir), slices: createGraphSlices(graph), sidebar: sections && createSidebarShipment(sections, site.assetsDir, site.site.lang) }
        }
      }
      // VitePress inlines site data into every page, dev and build: the generated sections travel in each page's own data instead.
      if (!wrapped.has(site)) {
        wrapped.add(site)
        const authorTransform = site.transformPageData
        site.transformPageData = async (pageData, context) => {
          const merged = await authorTransform?.(pageData, context)
          const metablog = pageKnowledge({ relativePath: pageData.relativePath, frontmatter: { ...pageData.frontmatter, ...merged?.frontmatter } })
          return metablog ? { ...merged, metablog: shipPageKnowledge(metablog) } : merged
        }
      }
    },
    configureServer(server) {
      watchAttachments(knowledge, server)
      // After Vite's own middleware (its host check among them): "More" in dev loads a folder's list here.
      return () => {
        server.middlewares.use(sidebarListMiddleware(knowledge))
      }
    },
    resolveId(id) {
      return id === GRAPH_MODULE_ID ? RESOLVED_GRAPH_MODULE_ID : undefined
    },
    load(id) {
      // The graph asset's path under the site's base in a build; in dev the page asks the API for the live graph.
      if (id === RESOLVED_GRAPH_MODULE_ID) return `export default ${JSON.stringify(shipment?.asset.fileName ?? null)}`
      return undefined
    },
    async generateBundle(output) {
      // Attachments are files, never imports: each linked one is copied to its own path, in the
      // client build only (the server build of the same plugin writes elsewhere). `public/` ships itself.
      const { sourceDir, outDir } = knowledge
      if (!sourceDir || !outDir || !output.dir || path.resolve(output.dir) !== path.resolve(outDir)) return
      if (shipment) this.emitFile({ type: 'asset', fileName: shipment.asset.fileName, source: shipment.asset.source })
      for (const asset of shipment?.sidebar?.assets ?? []) this.emitFile({ type: 'asset', ...asset })
      for (const file of knowledge.index.linkedAttachments()) {
        const absolute = path.join(sourceDir, file)
        // Checked again here: a file may have been swapped for a symlink since the index listed it.
        if (file.startsWith('public/') || !(await fs.lstat(absolute)).isFile()) continue
        this.emitFile({ type: 'asset', fileName: file, source: await fs.readFile(absolute) })
      }
    },
  }
}
