/**
 * A webpack plugin writing compressed copies beside the build's text files, so the relay serves them
 * compressed without compressing per request (src/relay/static-files.ts): brotli 11 (`.br`) and gzip 9
 * (`.gz`) for what webpack makes (scripts, pages); gzip 9 only for the copied files (the packaged office.js
 * fallback, 13 MB of Office's own scripts and locale strings: brotli 11 would add over a minute to a build
 * for a copy used only when Microsoft's CDN cannot be reached). A copy is kept only when it is at least 5%
 * smaller than its file; files under 1 KB are left as they are. Copies are kept in webpack's cache, so a
 * cached rebuild does not compress again. No dependency: Node's zlib (compression-webpack-plugin is not
 * installed).
 */
const { brotliCompress, constants, gzip } = require('node:zlib');
const { join } = require('node:path');
const { promisify } = require('node:util');

const TEXT = /\.(js|mjs|html|css|json|xml|svg|txt|map)$/;
const MIN_BYTES = 1024;
const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

async function compress(body, withBrotli) {
  const [br, gzipped] = await Promise.all([
    withBrotli
      ? brotli(body, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: 11,
            [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
            [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
          },
        })
      : null,
    gz(body, { level: 9 }),
  ]);
  const worth = (out) => (out && out.length <= body.length * 0.95 ? out : null);
  return { br: worth(br), gz: worth(gzipped) };
}

class Precompress {
  apply(compiler) {
    const { Compilation } = compiler.webpack;
    /** Per compilation: [asset name, its copies], made once the assets are final, written after emit. */
    const made = new WeakMap();
    compiler.hooks.thisCompilation.tap('Precompress', (compilation) => {
      const cache = compilation.getCache('Precompress');
      compilation.hooks.processAssets.tapPromise(
        { name: 'Precompress', stage: Compilation.PROCESS_ASSETS_STAGE_OPTIMIZE_TRANSFER },
        async () => {
          const list = compilation
            .getAssets()
            .filter(({ name, source }) => TEXT.test(name) && source.size() >= MIN_BYTES);
          made.set(
            compilation,
            await Promise.all(
              list.map(async ({ name, source, info }) => {
                const etag = cache.getLazyHashedEtag(source);
                let copies = await cache.getPromise(name, etag);
                if (!copies) {
                  copies = await compress(source.buffer(), !info.copied);
                  await cache.storePromise(name, etag, copies);
                }
                return [name, copies];
              }),
            ),
          );
        },
      );
    });
    // After emit, so each copy is written after its file: the relay takes a copy older than its file for a
    // leftover and serves the file instead (src/relay/static-files.ts).
    compiler.hooks.afterEmit.tapPromise('Precompress', async (compilation) => {
      const fs = compiler.outputFileSystem;
      const write = (file, body) =>
        new Promise((resolve, reject) => fs.writeFile(file, body, (e) => (e ? reject(e) : resolve())));
      await Promise.all(
        (made.get(compilation) ?? []).map(async ([name, copies]) => {
          const file = join(compilation.outputOptions.path, name);
          for (const ext of ['br', 'gz']) if (copies[ext]) await write(`${file}.${ext}`, copies[ext]);
        }),
      );
    });
  }
}

module.exports = { Precompress };
