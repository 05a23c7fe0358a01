// Virtual module ids, in one place; client/shims.d.ts declares their types for the browser.
export const GRAPH_MODULE_ID = 'virtual:metablog/graph'
export const RESOLVED_GRAPH_MODULE_ID = `\0${GRAPH_MODULE_ID}`
/** VitePress's own site-data module, re-served when the generated sidebar changes. */
export const SITE_DATA_MODULE_ID = '/@siteData'
/** The dev-only client (orb, live graph): the real module under `vitepress dev`, null in a build. */
export const ASSISTANT_MODULE_ID = 'virtual:metablog/assistant'
export const RESOLVED_ASSISTANT_MODULE_ID = `\0${ASSISTANT_MODULE_ID}`
/** KnowledgeGraph's loader for `enhanceApp`'s global registration; null in a build whose pages never use `<KnowledgeGraph>`. */
export const GRAPH_COMPONENT_MODULE_ID = 'virtual:metablog/graph-component'
export const RESOLVED_GRAPH_COMPONENT_MODULE_ID = `\0${GRAPH_COMPONENT_MODULE_ID}`
/** KnowledgeGraph's loader for the small graph under "Linked from", drawn in the browser only: null in the server bundle. */
export const LOCAL_GRAPH_MODULE_ID = 'virtual:metablog/local-graph'
export const RESOLVED_LOCAL_GRAPH_MODULE_ID = `\0${LOCAL_GRAPH_MODULE_ID}`
/** Files of the VitePress client whose default theme imports MetaBlog's sidebar item: `${prefix}shared.js` (see lean-sidebar-plugin). */
export const VITEPRESS_CLIENT_PREFIX = 'virtual:metablog/vitepress-client/'
