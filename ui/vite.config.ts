import { defineConfig } from 'vitest/config';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { svelteTesting } from '@testing-library/svelte/vite';

// The shell embeds `dist/`; `tauri dev` loads the dev server on a fixed port.
export default defineConfig({
  plugins: [svelte(), svelteTesting()],
  clearScreen: false,
  server: { port: 5173, strictPort: true },
  // WebKitGTK 2.38 and later run what Safari 16 runs; Debian 12 and Ubuntu 22.04 ship 2.48
  // and later through their security updates. Safari 15 made the build turn private class
  // fields into helper calls: 37 KB (8 %) more script, the helpers among the page's
  // hottest functions.
  build: { target: 'safari16', outDir: 'dist', emptyOutDir: true },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.ts'],
    setupFiles: ['src/test-setup.ts'],
  },
});
