// A worker's `new URL('./x.ts', import.meta.url)` names a file: in the package it is the compiled x.js.
export const compiledWorkerUrls = (text) => text.replace(/(new URL\(['"][^'"]+)\.ts(['"])/g, '$1.js$2')
