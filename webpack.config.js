/**
 * Builds the add-in into dist/: taskpane.html, commands.html, help.html, the icons, manifest.xml, and a
 * fallback copy of office.js (from the @microsoft/office-js package); in production, a brotli and a gzip
 * copy beside each text file (scripts/precompress.js). The pages load office.js from
 * Microsoft's CDN and use the copy only when the CDN cannot be reached (src/taskpane/office/).
 *
 * The source manifest names the development origin https://localhost:3000. Set GRC_SHEETS_URL (for
 * example https://grc-relay.example.com) to write dist/manifest.xml for that origin instead.
 */
const path = require('node:path');
const HtmlWebpackPlugin = require('html-webpack-plugin');
const CopyWebpackPlugin = require('copy-webpack-plugin');
const { Precompress } = require('./scripts/precompress');

const DEV_ORIGIN = 'https://localhost:3000';
const OFFICE_JS = path.join(path.dirname(require.resolve('@microsoft/office-js/package.json')), 'dist');

function productionOrigin() {
  const url = process.env.GRC_SHEETS_URL;
  if (!url) return DEV_ORIGIN;
  const parsed = new URL(url);
  if (parsed.protocol !== 'https:') throw new Error(`GRC_SHEETS_URL must be an https:// URL (Office loads add-ins over HTTPS only): ${url}`);
  return parsed.origin + parsed.pathname.replace(/\/$/, '');
}

/** The fallback office.js loads the host's script and the locale strings next to itself; copy only what Excel uses. */
const officeFiles = [
  'office.js',
  'o15apptofilemappingtable.js',
  'es6-promise.js',
  'excel-*.js',
  'excelwebapp-*.js',
  '*/office_strings.js',
  'telemetry/**',
  'ariatelemetry/**',
];

module.exports = (_env, argv) => {
  const production = argv.mode !== 'development';
  const origin = productionOrigin();
  return {
    mode: production ? 'production' : 'development',
    // A second build of unchanged sources (npm test after npm start, CI's fresh clone) takes seconds, not a
    // minute. In the checkout, not node_modules/.cache: worktrees that link one node_modules would share it.
    // The origin is in the version: a build for another GRC_SHEETS_URL is not served from this one's cache.
    cache: { type: 'filesystem', cacheDirectory: path.resolve(__dirname, '.cache/webpack'), version: origin, buildDependencies: { config: [__filename] } },
    // No source maps in the production build: the relay serves dist/ on a customer-facing host.
    devtool: production ? false : 'eval-cheap-module-source-map',
    entry: {
      // First in each page: starts loading office.js (CDN, else the packaged copy) before the app runs.
      'office-loader': './src/taskpane/office/loader.ts',
      taskpane: './src/taskpane/index.tsx',
      commands: './src/commands/commands.ts',
      // The sign-in window's page (Office dialog in Excel, popup in the preview): src/taskpane/signin/.
      'sign-in': './src/taskpane/signin/page.ts',
    },
    output: {
      path: path.resolve(__dirname, 'dist'),
      filename: '[name].[contenthash:8].js',
      clean: true,
    },
    resolve: { extensions: ['.ts', '.tsx', '.js'] },
    module: {
      rules: [
        {
          test: /\.tsx?$/,
          exclude: /node_modules/,
          use: {
            loader: 'swc-loader',
            options: {
              jsc: {
                parser: { syntax: 'typescript', tsx: true },
                transform: { react: { runtime: 'automatic', development: !production } },
                target: 'es2020',
              },
            },
          },
        },
      ],
    },
    performance: { hints: false },
    plugins: [
      new HtmlWebpackPlugin({ filename: 'taskpane.html', template: './src/taskpane/taskpane.html', chunks: ['office-loader', 'taskpane'], chunksSortMode: 'manual' }),
      new HtmlWebpackPlugin({ filename: 'commands.html', template: './src/commands/commands.html', chunks: ['office-loader', 'commands'], chunksSortMode: 'manual' }),
      new HtmlWebpackPlugin({ filename: 'sign-in.html', template: './src/taskpane/signin/sign-in.html', chunks: ['office-loader', 'sign-in'], chunksSortMode: 'manual' }),
      new HtmlWebpackPlugin({ filename: 'help.html', template: './src/taskpane/help.html', chunks: [] }),
      new CopyWebpackPlugin({
        patterns: [
          { from: 'assets/icon-*.png', to: 'assets/[name][ext]' },
          ...officeFiles.map((from) => ({ from, context: OFFICE_JS, to: 'office-js/', globOptions: { ignore: ['**/*.debug.js'] }, info: { minimized: true } })),
          {
            from: 'manifest.xml',
            to: 'manifest.xml',
            transform: (content) => content.toString().split(DEV_ORIGIN).join(origin),
          },
        ],
      }),
      // The relay serves these .br/.gz copies to browsers that accept them (src/relay/static-files.ts).
      ...(production ? [new Precompress()] : []),
    ],
  };
};
