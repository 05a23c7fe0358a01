// The live-construct check lives beside the server's content guard, so the page and the server judge alike.
export * from '../../server/content-guard/live-constructs.js'
