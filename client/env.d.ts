/// <reference types="vitepress/client" />
