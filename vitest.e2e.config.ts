import { defineConfig } from 'vitest/config'

// Browser tests: real dev server over a copy of the demo blog, fake model, Debian's Chromium.
export default defineConfig({
  test: {
    include: ['tests/e2e/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    maxWorkers: 1,
  },
})
