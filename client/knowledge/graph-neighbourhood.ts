// A page's neighbourhood is cut the same way by the dev server's GET /graph?path= and by the page.
export * from '../../server/knowledge/graph-neighbourhood.js'
