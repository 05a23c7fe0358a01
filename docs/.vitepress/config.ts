import { defineConfig } from 'vitepress'
import { withMetaBlog } from 'metablog'

export default withMetaBlog(
  defineConfig({
    title: 'MetaBlog Demo',
    description: 'A technical blog written with an AI co-author that lives in the dev server.',
    lang: 'en-US',
    cleanUrls: true,
    lastUpdated: false,
    themeConfig: {
      nav: [
        { text: 'Posts', link: '/posts/' },
        { text: 'Notes', link: '/notes/' },
        { text: '中文', link: '/zh/' },
        { text: 'Graph', link: '/graph' },
        { text: 'About MetaBlog', link: '/about-metablog' },
      ],
      search: { provider: 'local' },
      socialLinks: [],
    },
  }),
  {},
)
