     1	import crypto from 'node:crypto'
     2	import fs from 'node:fs'
     3	import fsp from 'node:fs/promises'
     4	import { createRequire } from 'node:module'
     5	import path from 'node:path'
     6	import { performance } from 'node:perf_hooks'
     7	import { pathToFileURL } from 'node:url'
     8	import { inspect, promisify } from 'node:util'
     9	import type {
    10	  DevToolsConfig,
    11	  ResolvedDevToolsConfig,
    12	} from '@vitejs/devtools/config'
    13	import {
    14	  getEnv,
    15	  ignoreInput,
    16	  ignoreOutput,
    17	} from '@voidzero-dev/vite-task-client'
    18	import { freshImport } from 'fresh-import'
    19	import colors from 'picocolors'
    20	import picomatch from 'picomatch'
    21	import {
    22	  type InputOption,
    23	  type NormalizedOutputOptions,
    24	  type OutputChunk,
    25	  type PluginContextMeta,
    26	  type RolldownOptions,
    27	  type RolldownOutput,
    28	  rolldown,
    29	} from 'rolldown'
    30	import { isDynamicPattern } from 'tinyglobby'
    31	import type { Alias, AliasOptions } from '#dep-types/alias'
    32	import {
    33	  createImportMetaResolver,
    34	  importMetaResolveWithCustomHookString,
    35	} from '../module-runner/importMetaResolver'
    36	import { withTrailingSlash } from '../shared/utils'
    37	import type { AnymatchFn } from '../types/anymatch'
    38	import type { HtmlAssetSource } from './assetSource'
    39	import { PartialEnvironment } from './baseEnvironment'
    40	import type {
    41	  BuildEnvironmentOptions,
    42	  BuilderOptions,
    43	  RenderBuiltAssetUrl,
    44	  ResolvedBuildEnvironmentOptions,
    45	  ResolvedBuildOptions,
    46	  ResolvedBuilderOptions,
    47	} from './build'
    48	import {
    49	  buildEnvironmentOptionsDefaults,
    50	  builderOptionsDefaults,
    51	  resolveBuildEnvironmentOptions,
    52	  resolveBuilderOptions,
    53	} from './build'
    54	import {
    55	  CLIENT_ENTRY,
    56	  DEFAULT_ASSETS_RE,
    57	  DEFAULT_CLIENT_CONDITIONS,
    58	  DEFAULT_CLIENT_MAIN_FIELDS,
    59	  DEFAULT_CONFIG_FILES,
    60	  DEFAULT_EXTENSIONS,
    61	  DEFAULT_EXTERNAL_CONDITIONS,
    62	  DEFAULT_PREVIEW_PORT,
    63	  DEFAULT_SERVER_CONDITIONS,
    64	  DEFAULT_SERVER_MAIN_FIELDS,
    65	  ENV_ENTRY,
    66	  FS_PREFIX,
    67	} from './constants'
    68	import { loadEnv, resolveEnvPrefix } from './env'
    69	import { createIdResolver } from './idResolver'
    70	import type { LogLevel, Logger } from './logger'
    71	import { createLogger } from './logger'
    72	import {
    73	  createNativeConfigCompatPlugin,
    74	  formatNativeConfigIncompatWarning,
    75	  type NativeConfigIncompatibility,
    76	} from './nativeConfigCompat'
    77	import { nodeResolveWithVite } from './nodeResolve'
    78	import type { DepOptimizationOptions } from './optimizer'
    79	import { convertEsbuildPluginToRolldownPlugin } from './optimizer/pluginConverter'
    80	import type { PackageCache } from './packages'
    81	import { findNearestNodeModules, findNearestPackageData } from './packages'
    82	import { resolveEnvironmentPlugins } from './plugin'
    83	import type {
    84	  FalsyPlugin,
    85	  HookHandler,
    86	  Plugin,
    87	  PluginOption,
    88	  PluginWithRequiredHook,
    89	} from './plugin'
    90	import {
    91	  createPluginHookUtils,
    92	  getHookHandler,
    93	  getSortedPluginsByHook,
    94	  resolvePlugins,
    95	} from './plugins'
    96	import {
    97	  type CSSOptions,
    98	  type ResolvedCSSOptions,
    99	  cssConfigDefaults,
   100	  resolveCSSOptions,
   101	} from './plugins/css'
   102	import type { ESBuildOptions } from './plugins/esbuild'
   103	import type { JsonOptions } from './plugins/json'
   104	import { type OxcOptions, convertEsbuildConfigToOxcConfig } from './plugins/oxc'
   105	import {
   106	  type EnvironmentResolveOptions,
   107	  type InternalResolveOptions,
   108	  type ResolveOptions,
   109	} from './plugins/resolve'
   110	import type { PreviewOptions, ResolvedPreviewOptions } from './preview'
   111	import { resolvePreviewOptions } from './preview'
   112	import type { ResolvedServerOptions, ServerOptions } from './server'
   113	import { resolveServerOptions, serverConfigDefaults } from './server'
   114	import { DevEnvironment } from './server/environment'
   115	import { createRunnableDevEnvironment } from './server/environments/runnableEnvironment'
   116	import { getAdditionalAllowedHosts } from './server/middlewares/hostCheck'
   117	import {
   118	  BasicMinimalPluginContext,
   119	  basePluginContextMeta,
   120	} from './server/pluginContainer'
   121	import type { WebSocketServer } from './server/ws'
   122	import type { ResolvedSSROptions, SSROptions } from './ssr'
   123	import { resolveSSROptions, ssrConfigDefaults } from './ssr'
   124	import { runnerImport } from './ssr/runnerImport'
   125	import type { RequiredExceptFor } from './typeUtils'
   126	import {
   127	  arraify,
   128	  asyncFlatten,
   129	  createDebugger,
   130	  createFilter,
   131	  deepClone,
   132	  getFileStartIndex,
   133	  hasBothRollupOptionsAndRolldownOptions,
   134	  isExternalUrl,
   135	  isFilePathESM,
   136	  isInNodeModules,
   137	  isNodeBuiltin,
   138	  isNodeLikeBuiltin,
   139	  isObject,
   140	  isParentDirectory,
   141	  lineTerminatorRE,
   142	  mergeAlias,
   143	  mergeConfig,
   144	  mergeWithDefaults,
   145	  nodeLikeBuiltins,
   146	  normalizeAlias,
   147	  normalizePath,
   148	  resolveHostname,
   149	  safeRealpathSync,
   150	  setupRollupOptionCompat,
   151	} from './utils'
   152	
   153	const debug = createDebugger('vite:config', { depth: 10 })
   154	const promisifiedRealpath = promisify(fs.realpath)
   155	const SYMBOL_RESOLVED_CONFIG: unique symbol = Symbol('vite:resolved-config')
   156	
   157	export interface ConfigEnv {
   158	  /**
   159	   * 'serve': during dev (`vite` command)
   160	   * 'build': when building for production (`vite build` command)
   161	   */
   162	  command: 'build' | 'serve'
   163	  mode: string
   164	  isSsrBuild?: boolean
   165	  isPreview?: boolean
   166	}
   167	
   168	/**
   169	 * spa: include SPA fallback middleware and configure sirv with `single: true` in preview
   170	 *
   171	 * mpa: only include non-SPA HTML middlewares
   172	 *
   173	 * custom: don't include HTML middlewares
   174	 */
   175	export type AppType = 'spa' | 'mpa' | 'custom'
   176	
   177	export type UserConfigFnObject = (env: ConfigEnv) => UserConfig
   178	export type UserConfigFnPromise = (env: ConfigEnv) => Promise<UserConfig>
   179	export type UserConfigFn = (env: ConfigEnv) => UserConfig | Promise<UserConfig>
   180	
   181	export type UserConfigExport =
   182	  | UserConfig
   183	  | Promise<UserConfig>
   184	  | UserConfigFnObject
   185	  | UserConfigFnPromise
   186	  | UserConfigFn
   187	
   188	/**
   189	 * Type helper to make it easier to use vite.config.ts
   190	 * accepts a direct {@link UserConfig} object, or a function that returns it.
   191	 * The function receives a {@link ConfigEnv} object.
   192	 */
   193	export function defineConfig(config: UserConfig): UserConfig
   194	export function defineConfig(config: Promise<UserConfig>): Promise<UserConfig>
   195	export function defineConfig(config: UserConfigFnObject): UserConfigFnObject
   196	export function defineConfig(config: UserConfigFnPromise): UserConfigFnPromise
   197	export function defineConfig(config: UserConfigFn): UserConfigFn
   198	export function defineConfig(config: UserConfigExport): UserConfigExport
   199	export function defineConfig(config: UserConfigExport): UserConfigExport {
   200	  return config
   201	}
   202	
   203	export interface CreateDevEnvironmentContext {
   204	  ws: WebSocketServer
   205	}
   206	
   207	export interface DevEnvironmentOptions {
   208	  /**
   209	   * Files to be pre-transformed. Supports glob patterns.
   210	   */
   211	  warmup?: string[]
   212	  /**
   213	   * Pre-transform known direct imports
   214	   * defaults to true for the client environment, false for the rest
   215	   */
   216	  preTransformRequests?: boolean
   217	  /**
   218	   * Enables sourcemaps during dev
   219	   * @default { js: true }
   220	   * @experimental
   221	   */
   222	  sourcemap?: boolean | { js?: boolean; css?: boolean }
   223	  /**
   224	   * Whether or not to ignore-list source files in the dev server sourcemap, used to populate
   225	   * the [`x_google_ignoreList` source map extension](https://developer.chrome.com/blog/devtools-better-angular-debugging/#the-x_google_ignorelist-source-map-extension).
   226	   *
   227	   * By default, it excludes all paths containing `node_modules`. You can pass `false` to
   228	   * disable this behavior, or, for full control, a function that takes the source path and
   229	   * sourcemap path and returns whether to ignore the source path.
   230	   */
   231	  sourcemapIgnoreList?:
   232	    | false
   233	    | ((sourcePath: string, sourcemapPath: string) => boolean)
   234	
   235	  /**
   236	   * create the Dev Environment instance
   237	   */
   238	  createEnvironment?: (
   239	    name: string,
   240	    config: ResolvedConfig,
   241	    context: CreateDevEnvironmentContext,
   242	  ) => Promise<DevEnvironment> | DevEnvironment
   243	
   244	  /**
   245	   * For environments that support a full-reload, like the client, we can short-circuit when
   246	   * restarting the server throwing early to stop processing current files. We avoided this for
   247	   * SSR requests. Maybe this is no longer needed.
   248	   * @experimental
   249	   */
   250	  recoverable?: boolean
   251	
   252	  /**
   253	   * For environments associated with a module runner.
   254	   * By default, it is false for the client environment and true for non-client environments.
   255	   * This option can also be used instead of the removed config.experimental.skipSsrTransform.
   256	   */
   257	  moduleRunnerTransform?: boolean
   258	}
   259	
   260	function defaultCreateClientDevEnvironment(
   261	  name: string,
   262	  config: ResolvedConfig,
   263	  context: CreateDevEnvironmentContext,
   264	) {
   265	  return new DevEnvironment(name, config, {
   266	    hot: true,
   267	    transport: context.ws,
   268	    disableFetchModule: true,
   269	  })
   270	}
   271	
   272	function defaultCreateDevEnvironment(name: string, config: ResolvedConfig) {
   273	  return createRunnableDevEnvironment(name, config)
   274	}
   275	
   276	export type ResolvedDevEnvironmentOptions = Omit<
   277	  Required<DevEnvironmentOptions>,
   278	  'sourcemapIgnoreList'
   279	> & {
   280	  sourcemapIgnoreList: Exclude<
   281	    DevEnvironmentOptions['sourcemapIgnoreList'],
   282	    false | undefined
   283	  >
   284	}
   285	
   286	type AllResolveOptions = ResolveOptions & {
   287	  alias?: AliasOptions
   288	}
   289	
   290	type ResolvedAllResolveOptions = Required<ResolveOptions> & { alias: Alias[] }
   291	
   292	export interface SharedEnvironmentOptions {
   293	  /**
   294	   * Entry points of the application.
   295	   *
   296	   * Paths are resolved relative to the project root.
   297	   */
   298	  input?: InputOption
   299	  /**
   300	   * Define global variable replacements.
   301	   * Entries will be defined on `window` during dev and replaced during build.
   302	   */
   303	  define?: Record<string, any>
   304	  /**
   305	   * Configure resolver
   306	   */
   307	  resolve?: EnvironmentResolveOptions
   308	  /**
   309	   * Define if this environment is used for Server-Side Rendering
   310	   * @default 'server' if it isn't the client environment
   311	   */
   312	  consumer?: 'client' | 'server'
   313	  /**
   314	   * If true, `process.env` referenced in code will be preserved as-is and evaluated in runtime.
   315	   * Otherwise, it is statically replaced as an empty object.
   316	   */
   317	  keepProcessEnv?: boolean
   318	  /**
   319	   * Optimize deps config
   320	   */
   321	  optimizeDeps?: DepOptimizationOptions
   322	  /**
   323	   * Whether this environment produces a bundled output.
   324	   *
   325	   * During `build`, this defaults to `true` for every environment.
   326	   * During `serve`, this defaults to `true` only for the client environment
   327	   * when `experimental.bundledDev` is enabled, and `false` otherwise.
   328	   * Setting this explicitly on an environment always overrides the default.
   329	   *
   330	   * @experimental
   331	   */
   332	  isBundled?: boolean
   333	}
   334	
   335	export interface EnvironmentOptions extends SharedEnvironmentOptions {
   336	  /**
   337	   * Dev specific options
   338	   */
   339	  dev?: DevEnvironmentOptions
   340	  /**
   341	   * Build specific options
   342	   */
   343	  build?: BuildEnvironmentOptions
   344	}
   345	
   346	export type ResolvedResolveOptions = Required<ResolveOptions>
   347	
   348	export type ResolvedEnvironmentOptions = {
   349	  input?: InputOption
   350	  define?: Record<string, any>
   351	  resolve: ResolvedResolveOptions
   352	  consumer: 'client' | 'server'
   353	  keepProcessEnv?: boolean
   354	  optimizeDeps: DepOptimizationOptions
   355	  dev: ResolvedDevEnvironmentOptions
   356	  build: ResolvedBuildEnvironmentOptions
   357	  isBundled: boolean
   358	  plugins: readonly Plugin[]
   359	  /** @internal */
   360	  optimizeDepsPluginNames: string[]
   361	}
   362	
   363	export type DefaultEnvironmentOptions = Omit<
   364	  EnvironmentOptions,
   365	  'consumer' | 'resolve' | 'keepProcessEnv'
   366	> & {
   367	  resolve?: AllResolveOptions
   368	}
   369	
   370	export interface UserConfig extends DefaultEnvironmentOptions {
   371	  /**
   372	   * Project root directory. Can be an absolute path, or a path relative from
   373	   * the location of the config file itself.
   374	   * @default process.cwd()
   375	   */
   376	  root?: string
   377	  /**
   378	   * Base public path when served in development or production.
   379	   * @default '/'
   380	   */
   381	  base?: string
   382	  /**
   383	   * Directory to serve as plain static assets. Files in this directory are
   384	   * served and copied to build dist dir as-is without transform. The value
   385	   * can be either an absolute file system path or a path relative to project root.
   386	   *
   387	   * Set to `false` or an empty string to disable copied static assets to build dist dir.
   388	   * @default 'public'
   389	   */
   390	  publicDir?: string | false
   391	  /**
   392	   * Directory to save cache files. Files in this directory are pre-bundled
   393	   * deps or some other cache files that generated by vite, which can improve
   394	   * the performance. You can use `--force` flag or manually delete the directory
   395	   * to regenerate the cache files. The value can be either an absolute file
   396	   * system path or a path relative to project root.
   397	   * Default to `.vite` when neither a `package.json` nor a `node_modules` directory is detected.
   398	   * @default 'node_modules/.vite'
   399	   */
   400	  cacheDir?: string
   401	  /**
   402	   * Explicitly set a mode to run in. This will override the default mode for
   403	   * each command, and can be overridden by the command line --mode option.
   404	   */
   405	  mode?: string
   406	  /**
   407	   * Array of vite plugins to use.
   408	   */
   409	  plugins?: PluginOption[]
   410	  /**
   411	   * HTML related options
   412	   */
   413	  html?: HTMLOptions
   414	  /**
   415	   * CSS related options (preprocessors and CSS modules)
   416	   */
   417	  css?: CSSOptions
   418	  /**
   419	   * JSON loading options
   420	   */
   421	  json?: JsonOptions
   422	  /**
   423	   * Transform options to pass to esbuild.
   424	   * Or set to `false` to disable esbuild.
   425	   *
   426	   * @deprecated Use `oxc` option instead.
   427	   */
   428	  esbuild?: ESBuildOptions | false
   429	  /**
   430	   * Transform options to pass to Oxc.
   431	   * Or set to `false` to disable Oxc.
   432	   */
   433	  oxc?: OxcOptions | false
   434	  /**
   435	   * Specify additional picomatch patterns to be treated as static assets.
   436	   */
   437	  assetsInclude?: string | RegExp | (string | RegExp)[]
   438	  /**
   439	   * Builder specific options
   440	   * @experimental
   441	   */
   442	  builder?: BuilderOptions
   443	  /**
   444	   * Server specific options, e.g. host, port, https...
   445	   */
   446	  server?: ServerOptions
   447	  /**
   448	   * Preview specific options, e.g. host, port, https...
   449	   */
   450	  preview?: PreviewOptions
   451	  /**
   452	   * Experimental features
   453	   *
   454	   * Features under this field could change in the future and might NOT follow semver.
   455	   * Please be careful and always pin Vite's version when using them.
   456	   * @experimental
   457	   */
   458	  experimental?: ExperimentalOptions
   459	  /**
   460	   * Options to opt-in to future behavior
   461	   */
   462	  future?: FutureOptions | 'warn'
   463	  /**
   464	   * Legacy options
   465	   *
   466	   * Features under this field only follow semver for patches, they could be removed in a
   467	   * future minor version. Please always pin Vite's version to a minor when using them.
   468	   */
   469	  legacy?: LegacyOptions
   470	  /**
   471	   * Log level.
   472	   * @default 'info'
   473	   */
   474	  logLevel?: LogLevel
   475	  /**
   476	   * Custom logger.
   477	   */
   478	  customLogger?: Logger
   479	  /**
   480	   * @default true
   481	   */
   482	  clearScreen?: boolean
   483	  /**
   484	   * Environment files directory. Can be an absolute path, or a path relative from
   485	   * root.
   486	   * @default root
   487	   */
   488	  envDir?: string | false
   489	  /**
   490	   * Env variables starts with `envPrefix` will be exposed to your client source code via import.meta.env.
   491	   * @default 'VITE_'
   492	   */
   493	  envPrefix?: string | string[]
   494	  /**
   495	   * Worker bundle options
   496	   */
   497	  worker?: {
   498	    /**
   499	     * Output format for worker bundle
   500	     * @default 'iife'
   501	     */
   502	    format?: 'es' | 'iife'
   503	    /**
   504	     * Vite plugins that apply to worker bundle. The plugins returned by this function
   505	     * should be new instances every time it is called, because they are used for each
   506	     * rolldown worker bundling process.
   507	     */
   508	    plugins?: () => PluginOption[]
   509	    /**
   510	     * Alias to `rolldownOptions`.
   511	     * @deprecated Use `rolldownOptions` instead.
   512	     */
   513	    rollupOptions?: Omit<
   514	      RolldownOptions,
   515	      'plugins' | 'input' | 'onwarn' | 'preserveEntrySignatures'
   516	    >
   517	    /**
   518	     * Rolldown options to build worker bundle
   519	     */
   520	    rolldownOptions?: Omit<
   521	      RolldownOptions,
   522	      'plugins' | 'input' | 'onwarn' | 'preserveEntrySignatures'
   523	    >
   524	  }
   525	  /**
   526	   * Dep optimization options
   527	   */
   528	  optimizeDeps?: DepOptimizationOptions
   529	  /**
   530	   * SSR specific options
   531	   * We could make SSROptions be a EnvironmentOptions if we can abstract
   532	   * external/noExternal for environments in general.
   533	   */
   534	  ssr?: SSROptions
   535	  /**
   536	   * Environment overrides
   537	   */
   538	  environments?: Record<string, EnvironmentOptions>
   539	  /**
   540	   * Whether your application is a Single Page Application (SPA),
   541	   * a Multi-Page Application (MPA), or Custom Application (SSR
   542	   * and frameworks with custom HTML handling)
   543	   * @default 'spa'
   544	   */
   545	  appType?: AppType
   546	  /**
   547	   * Enable devtools integration. Ensure that `@vitejs/devtools` is installed as a dependency.
   548	   * This feature is currently supported only in build mode.
   549	   * @experimental
   550	   * @default false
   551	   */
   552	  devtools?: boolean | DevToolsConfig
   553	}
   554	
   555	export interface HTMLOptions {
   556	  /**
   557	   * A nonce value placeholder that will be used when generating script/style tags.
   558	   *
   559	   * Make sure that this placeholder will be replaced with a unique value for each request by the server.
   560	   */
   561	  cspNonce?: string
   562	  /**
   563	   * Define additional HTML elements and attributes to be treated as asset sources.
   564	   * This extends the built-in list that includes standard elements like `<img src>`, `<video src>`, etc.
   565	   *
   566	   * @example
   567	   * ```ts
   568	   * html: {
   569	   *   additionalAssetSources: {
   570	   *     // Custom web component
   571	   *     'html-import': { srcAttributes: ['src'] },
   572	   *     // Add data-* attributes to existing element
   573	   *     'img': { srcAttributes: ['data-src-dark', 'data-src-light'] }
   574	   *   }
   575	   * }
   576	   * ```
   577	   */
   578	  additionalAssetSources?: Record<string, HtmlAssetSource>
   579	}
   580	
   581	export interface FutureOptions {
   582	  removePluginHookHandleHotUpdate?: 'warn'
   583	  removePluginHookSsrArgument?: 'warn'
   584	
   585	  removeServerModuleGraph?: 'warn'
   586	  removeServerReloadModule?: 'warn'
   587	  removeServerPluginContainer?: 'warn'
   588	  removeServerHot?: 'warn'
   589	  removeServerTransformRequest?: 'warn'
   590	  removeServerWarmupRequest?: 'warn'
   591	
   592	  removeSsrLoadModule?: 'warn'
   593	}
   594	
   595	export interface ExperimentalOptions {
   596	  /**
   597	   * Append fake `&lang.(ext)` when queries are specified, to preserve the file extension for following plugins to process.
   598	   *
   599	   * @experimental
   600	   * @default false
   601	   */
   602	  importGlobRestoreExtension?: boolean
   603	  /**
   604	   * Allow finegrain control over assets and public files paths
   605	   *
   606	   * @experimental
   607	   */
   608	  renderBuiltUrl?: RenderBuiltAssetUrl
   609	  /**
   610	   * Enables support of HMR partial accept via `import.meta.hot.acceptExports`.
   611	   *
   612	   * @experimental
   613	   * @default false
   614	   */
   615	  hmrPartialAccept?: boolean
   616	  /**
   617	   * Enable full bundle mode during `serve`.
   618	   *
   619	   * This seeds the default for the client environment's `isBundled` option.
   620	   * Other environments default to `false` during `serve`. Any environment
   621	   * can override its `isBundled` value via `environments[name].isBundled`.
   622	   *
   623	   * This is highly experimental.
   624	   *
   625	   * HMR semantics under full bundle mode differ from the middleware-based dev server
   626	   * in two ways (boundaries are computed in the browser from runtime state, not
   627	   * statically on the server):
   628	   *
   629	   * - Acceptance counts only when it executed: an `import.meta.hot.accept()` that
   630	   *   is in a dead branch does not suppress the update and falls back to a full reload.
   631	   * - `hot.invalidate()` is handled fully client-side.
   632	   *
   633	   * @experimental
   634	   * @default false
   635	   */
   636	  bundledDev?: boolean
   637	}
   638	
   639	export interface LegacyOptions {
   640	  /**
   641	   * In Vite 6.0.8 and below, WebSocket server was able to connect from any web pages. However,
   642	   * that could be exploited by a malicious web page.
   643	   *
   644	   * In Vite 6.0.9+, the WebSocket server now requires a token to connect from a web page.
   645	   * But this may break some plugins and frameworks that connects to the WebSocket server
   646	   * on their own. Enabling this option will make Vite skip the token check.
   647	   *
   648	   * **We do not recommend enabling this option unless you are sure that you are fine with
   649	   * that security weakness.**
   650	   */
   651	  skipWebSocketTokenCheck?: boolean
   652	  /**
   653	   * Opt-in to the pre-Vite 8 CJS interop behavior, which was inconsistent.
   654	   *
   655	   * In pre-Vite 8 versions, Vite had inconsistent CJS interop behavior. This was due to
   656	   * the different behavior of esbuild and the Rollup commonjs plugin.
   657	   * Vite 8+ uses Rolldown for both the dependency optimization in dev and the production build,
   658	   * which aligns the behavior to esbuild.
   659	   *
   660	   * See the Vite 8 migration guide for more details.
   661	   */
   662	  inconsistentCjsInterop?: boolean
   663	}
   664	
   665	export interface ResolvedWorkerOptions {
   666	  format: 'es' | 'iife'
   667	  plugins: (bundleChain: string[]) => Promise<ResolvedConfig>
   668	  /**
   669	   * @deprecated Use `rolldownOptions` instead.
   670	   */
   671	  rollupOptions: RolldownOptions
   672	  rolldownOptions: RolldownOptions
   673	}
   674	
   675	export interface InlineConfig extends UserConfig {
   676	  configFile?: string | false
   677	  /** @experimental */
   678	  configLoader?: 'bundle' | 'runner' | 'native'
   679	  /** @deprecated */
   680	  envFile?: false
   681	  forceOptimizeDeps?: boolean
   682	}
   683	
   684	export interface ResolvedConfig extends Readonly<
   685	  Omit<
   686	    UserConfig,
   687	    | 'plugins'
   688	    | 'css'
   689	    | 'json'
   690	    | 'assetsInclude'
   691	    | 'optimizeDeps'
   692	    | 'worker'
   693	    | 'build'
   694	    | 'dev'
   695	    | 'environments'
   696	    | 'experimental'
   697	    | 'future'
   698	    | 'server'
   699	    | 'preview'
   700	    | 'devtools'
   701	  > & {
   702	    configFile: string | undefined
   703	    configFileDependencies: string[]
   704	    inlineConfig: InlineConfig
   705	    root: string
   706	    base: string
   707	    /** @internal */
   708	    decodedBase: string
   709	    /** @internal */
   710	    rawBase: string
   711	    publicDir: string
   712	    cacheDir: string
   713	    command: 'build' | 'serve'
   714	    mode: string
   715	    isWorker: boolean
   716	    // in nested worker bundle to find the main config
   717	    /** @internal */
   718	    mainConfig: ResolvedConfig | null
   719	    /** @internal list of bundle entry id. used to detect recursive worker bundle. */
   720	    bundleChain: string[]
   721	    isProduction: boolean
   722	    envDir: string | false
   723	    env: Record<string, any>
   724	    resolve: Required<ResolveOptions> & {
   725	      alias: Alias[]
   726	    }
   727	    plugins: readonly Plugin[]
   728	    css: ResolvedCSSOptions
   729	    json: Required<JsonOptions>
   730	    /** @deprecated Use `oxc` option instead. */
   731	    esbuild: ESBuildOptions | false
   732	    oxc: OxcOptions | false
   733	    server: ResolvedServerOptions
   734	    dev: ResolvedDevEnvironmentOptions
   735	    /** @experimental */
   736	    builder: ResolvedBuilderOptions | undefined
   737	    build: ResolvedBuildOptions
   738	    devtools: ResolvedDevToolsConfig
   739	    preview: ResolvedPreviewOptions
   740	    ssr: ResolvedSSROptions
   741	    assetsInclude: (file: string) => boolean
   742	    rawAssetsInclude: (string | RegExp)[]
   743	    logger: Logger
   744	    /**
   745	     * Create an internal resolver to be used in special scenarios, e.g.
   746	     * optimizer & handling css `@imports`.
   747	     *
   748	     * This API is deprecated. It only works for the client and ssr
   749	     * environments. The `aliasOnly` option is also not being used anymore.
   750	     * Plugins should move to `createIdResolver(environment.config)` instead.
   751	     *
   752	     * @deprecated Use `createIdResolver` from `vite` instead.
   753	     */
   754	    createResolver: (options?: Partial<InternalResolveOptions>) => ResolveFn
   755	    optimizeDeps: DepOptimizationOptions
   756	    /** @internal */
   757	    packageCache: PackageCache
   758	    worker: ResolvedWorkerOptions
   759	    appType: AppType
   760	    experimental: RequiredExceptFor<ExperimentalOptions, 'renderBuiltUrl'>
   761	    future: FutureOptions | undefined
   762	    environments: Record<string, ResolvedEnvironmentOptions>
   763	    /** @internal injected by legacy plugin */
   764	    isOutputOptionsForLegacyChunks?(
   765	      outputOptions: NormalizedOutputOptions,
   766	    ): boolean
   767	    /**
   768	     * The token to connect to the WebSocket server from browsers.
   769	     *
   770	     * We recommend using `import.meta.hot` rather than connecting
   771	     * to the WebSocket server directly.
   772	     * If you have a usecase that requires connecting to the WebSocket
   773	     * server, please create an issue so that we can discuss.
   774	     *
   775	     * @deprecated
   776	     */
   777	    webSocketToken: string
   778	    /** @internal */
   779	    fsDenyGlob: AnymatchFn
   780	    /** @internal */
   781	    safeModulePaths: Set<string>
   782	    /** @internal */
   783	    [SYMBOL_RESOLVED_CONFIG]: true
   784	  } & PluginHookUtils
   785	> {}
   786	
   787	export async function resolveDevToolsConfig(
   788	  config: DevToolsConfig | boolean | undefined,
   789	  host: string | boolean | undefined,
   790	  logger: Logger,
   791	): Promise<ResolvedDevToolsConfig> {
   792	  const isEnabled = config === true || !!(config && config.enabled)
   793	  const resolvedHostname = await resolveHostname(host)
   794	  const fallbackHostname = resolvedHostname.host ?? 'localhost'
   795	  const fallbackConfig = {
   796	    config: {
   797	      host: fallbackHostname,
   798	    },
   799	    enabled: false,
   800	  }
   801	  if (!isEnabled) {
   802	    return fallbackConfig
   803	  }
   804	
   805	  try {
   806	    const { normalizeDevToolsConfig } = await import('@vitejs/devtools/config')
   807	    return normalizeDevToolsConfig(config, fallbackHostname)
   808	  } catch (e) {
   809	    logger.error(
   810	      colors.red(
   811	        `Failed to load Vite DevTools config: ${e.message || e.stack}`,
   812	      ),
   813	      { error: e },
   814	    )
   815	    return fallbackConfig
   816	  }
   817	}
   818	
   819	// inferred ones are omitted
   820	const configDefaults = Object.freeze({
   821	  define: {},
   822	  dev: {
   823	    warmup: [],
   824	    // preTransformRequests
   825	    /** @experimental */
   826	    sourcemap: { js: true },
   827	    sourcemapIgnoreList: undefined,
   828	    // createEnvironment
   829	    // recoverable
   830	    // moduleRunnerTransform
   831	  },
   832	  build: buildEnvironmentOptionsDefaults,
   833	  resolve: {
   834	    // mainFields
   835	    // conditions
   836	    externalConditions: [...DEFAULT_EXTERNAL_CONDITIONS],
   837	    extensions: DEFAULT_EXTENSIONS,
   838	    dedupe: [],
   839	    /** @experimental */
   840	    noExternal: [],
   841	    external: [],
   842	    preserveSymlinks: false,
   843	    tsconfigPaths: false,
   844	    alias: [],
   845	  },
   846	
   847	  // root
   848	  base: '/',
   849	  publicDir: 'public',
   850	  // cacheDir
   851	  // mode
   852	  plugins: [],
   853	  html: {
   854	    cspNonce: undefined,
   855	  },
   856	  css: cssConfigDefaults,
   857	  json: {
   858	    namedExports: true,
   859	    stringify: 'auto',
   860	  },
   861	  // esbuild
   862	  assetsInclude: undefined,
   863	  /** @experimental */
   864	  builder: builderOptionsDefaults,
   865	  server: serverConfigDefaults,
   866	  preview: {
   867	    port: DEFAULT_PREVIEW_PORT,
   868	    // strictPort
   869	    // host
   870	    // https
   871	    // open
   872	    // proxy
   873	    // cors
   874	    // headers
   875	  },
   876	  /** @experimental */
   877	  experimental: {
   878	    importGlobRestoreExtension: false,
   879	    renderBuiltUrl: undefined,
   880	    hmrPartialAccept: false,
   881	    bundledDev: false,
   882	  },
   883	  future: {
   884	    removePluginHookHandleHotUpdate: undefined,
   885	    removePluginHookSsrArgument: undefined,
   886	    removeServerModuleGraph: undefined,
   887	    removeServerHot: undefined,
   888	    removeServerTransformRequest: undefined,
   889	    removeServerWarmupRequest: undefined,
   890	    removeSsrLoadModule: undefined,
   891	  },
   892	  legacy: {
   893	    skipWebSocketTokenCheck: false,
   894	  },
   895	  logLevel: 'info',
   896	  customLogger: undefined,
   897	  clearScreen: true,
   898	  envDir: undefined,
   899	  envPrefix: 'VITE_',
   900	  worker: {
   901	    format: 'iife',
   902	    plugins: (): never[] => [],
   903	    // rolldownOptions
   904	  },
   905	  optimizeDeps: {
   906	    include: [],
   907	    exclude: [],
   908	    needsInterop: [],
   909	    // esbuildOptions
   910	    rolldownOptions: {},
   911	    /** @experimental */
   912	    extensions: [],
   913	    /** @deprecated @experimental */
   914	    disabled: 'build',
   915	    // noDiscovery
   916	    /** @experimental */
   917	    holdUntilCrawlEnd: true,
   918	    // entries
   919	    /** @experimental */
   920	    force: false,
   921	    /** @experimental */
   922	    ignoreOutdatedRequests: false,
   923	  },
   924	  ssr: ssrConfigDefaults,
   925	  environments: {},
   926	  appType: 'spa',
   927	} satisfies UserConfig)
   928	
   929	function normalizeInput(
   930	  input: InputOption | undefined,
   931	): InputOption | undefined {
   932	  if (input === undefined) {
   933	    return undefined
   934	  }
   935	  if (typeof input === 'string') {
   936	    return unescapeGlobCharacters(input)
   937	  }
   938	  if (Array.isArray(input)) {
   939	    return input.map(unescapeGlobCharacters)
   940	  }
   941	  const resolved: Record<string, string> = {}
   942	  for (const key in input) {
   943	    resolved[key] = unescapeGlobCharacters(input[key])
   944	  }
   945	  return resolved
   946	}
   947	
   948	const escapedGlobCharactersRE = /\\([*?[\]{}()!+@|])/g
   949	
   950	function unescapeGlobCharacters(value: string): string {
   951	  if (isDynamicPattern(value)) {
   952	    // so that it could later be changed to accept globs without a breaking change
   953	    throw new Error(
   954	      `\`input\` cannot contain glob characters. They are reserved, ` +
   955	        `so the ${JSON.stringify(value)} is not allowed. Please escape them with a backslash (\\)`,
   956	    )
   957	  }
   958	  // unescape glob characters
   959	  return value.replace(escapedGlobCharactersRE, '$1')
   960	}
   961	
   962	export function resolveDevEnvironmentOptions(
   963	  dev: DevEnvironmentOptions | undefined,
   964	  environmentName: string | undefined,
   965	  consumer: 'client' | 'server' | undefined,
   966	  // Backward compatibility
   967	  preTransformRequest?: boolean,
   968	): ResolvedDevEnvironmentOptions {
   969	  const resolved = mergeWithDefaults(
   970	    {
   971	      ...configDefaults.dev,
   972	      sourcemapIgnoreList: isInNodeModules,
   973	      preTransformRequests: preTransformRequest ?? consumer === 'client',
   974	      createEnvironment:
   975	        environmentName === 'client'
   976	          ? defaultCreateClientDevEnvironment
   977	          : defaultCreateDevEnvironment,
   978	      recoverable: consumer === 'client',
   979	      moduleRunnerTransform: consumer === 'server',
   980	    },
   981	    dev ?? {},
   982	  )
   983	  return {
   984	    ...resolved,
   985	    sourcemapIgnoreList:
   986	      resolved.sourcemapIgnoreList === false
   987	        ? () => false
   988	        : resolved.sourcemapIgnoreList,
   989	  }
   990	}
   991	
   992	function resolveEnvironmentOptions(
   993	  options: EnvironmentOptions,
   994	  alias: Alias[],
   995	  preserveSymlinks: boolean,
   996	  forceOptimizeDeps: boolean | undefined,
   997	  logger: Logger,
   998	  environmentName: string,
   999	  isBuild: boolean,
  1000	  isBundledDev: boolean,
  1001	  // Backward compatibility
  1002	  isSsrTargetWebworkerSet?: boolean,
  1003	  preTransformRequests?: boolean,
  1004	): ResolvedEnvironmentOptions {
  1005	  const isClientEnvironment = environmentName === 'client'
  1006	  const consumer =
  1007	    options.consumer ?? (isClientEnvironment ? 'client' : 'server')
  1008	  const isSsrTargetWebworkerEnvironment =
  1009	    isSsrTargetWebworkerSet && environmentName === 'ssr'
  1010	
  1011	  const isBundled =
  1012	    options.isBundled ?? (isBuild || (isClientEnvironment && isBundledDev))
  1013	
  1014	  if (options.define?.['process.env']) {
  1015	    const processEnvDefine = options.define['process.env']
  1016	    if (typeof processEnvDefine === 'object') {
  1017	      const pathKey = Object.entries(processEnvDefine).find(
  1018	        // check with toLowerCase() to match with `Path` / `PATH` (Windows uses `Path`)
  1019	        ([key, value]) => key.toLowerCase() === 'path' && !!value,
  1020	      )?.[0]
  1021	      if (pathKey) {
  1022	        logger.warnOnce(
  1023	          colors.yellow(
  1024	            `The \`define\` option contains an object with ${JSON.stringify(pathKey)} for "process.env" key. ` +
  1025	              'It looks like you may have passed the entire `process.env` object to `define`, ' +
  1026	              'which can unintentionally expose all environment variables. ' +
  1027	              'This poses a security risk and is discouraged.',
  1028	          ),
  1029	        )
  1030	      }
  1031	    }
  1032	  }
  1033	
  1034	  const resolve = resolveEnvironmentResolveOptions(
  1035	    options.resolve,
  1036	    alias,
  1037	    preserveSymlinks,
  1038	    logger,
  1039	    consumer,
  1040	    isSsrTargetWebworkerEnvironment,
  1041	  )
  1042	  return {
  1043	    input: normalizeInput(options.input),
  1044	    define: options.define,
  1045	    resolve,
  1046	    keepProcessEnv:
  1047	      options.keepProcessEnv ??
  1048	      (isSsrTargetWebworkerEnvironment ? false : consumer === 'server'),
  1049	    consumer,
  1050	    optimizeDeps: resolveDepOptimizationOptions(
  1051	      options.optimizeDeps,
  1052	      resolve.preserveSymlinks,
  1053	      forceOptimizeDeps,
  1054	      consumer,
  1055	      logger,
  1056	    ),
  1057	    dev: resolveDevEnvironmentOptions(
  1058	      options.dev,
  1059	      environmentName,
  1060	      consumer,
  1061	      preTransformRequests,
  1062	    ),
  1063	    build: resolveBuildEnvironmentOptions(
  1064	      options.build ?? {},
  1065	      logger,
  1066	      consumer,
  1067	      isBundled && !isBuild,
  1068	      options.input,
  1069	      isSsrTargetWebworkerEnvironment,
  1070	    ),
  1071	    isBundled,
  1072	    plugins: undefined!, // to be resolved later
  1073	    // will be set by `setOptimizeDepsPluginNames` later
  1074	    optimizeDepsPluginNames: undefined!,
  1075	  }
  1076	}
  1077	
  1078	export function getDefaultEnvironmentOptions(
  1079	  config: UserConfig,
  1080	): EnvironmentOptions {
  1081	  return {
  1082	    define: config.define,
  1083	    resolve: {
  1084	      ...config.resolve,
  1085	      // mainFields and conditions are not inherited
  1086	      mainFields: undefined,
  1087	      conditions: undefined,
  1088	    },
  1089	    dev: config.dev,
  1090	    build: config.build,
  1091	  }
  1092	}
  1093	
  1094	export interface PluginHookUtils {
  1095	  getSortedPlugins: <K extends keyof Plugin>(
  1096	    hookName: K,
  1097	  ) => PluginWithRequiredHook<K>[]
  1098	  getSortedPluginHooks: <K extends keyof Plugin>(
  1099	    hookName: K,
  1100	  ) => NonNullable<HookHandler<Plugin[K]>>[]
  1101	}
  1102	
  1103	export type ResolveFn = (
  1104	  id: string,
  1105	  importer?: string,
  1106	  aliasOnly?: boolean,
  1107	  ssr?: boolean,
  1108	) => Promise<string | undefined>
  1109	
  1110	/**
  1111	 * Check and warn if `path` includes characters that don't work well in Vite,
  1112	 * such as `#` and `?` and `*`.
  1113	 */
  1114	function checkBadCharactersInPath(
  1115	  name: string,
  1116	  type: 'directory' | 'file',
  1117	  path: string,
  1118	  logger: Logger,
  1119	): void {
  1120	  const badChars = []
  1121	
  1122	  if (path.includes('#')) {
  1123	    badChars.push('#')
  1124	  }
  1125	  if (path.includes('?')) {
  1126	    badChars.push('?')
  1127	  }
  1128	  if (path.includes('*')) {
  1129	    badChars.push('*')
  1130	  }
  1131	
  1132	  if (badChars.length > 0) {
  1133	    const charString = badChars.map((c) => `"${c}"`).join(' and ')
  1134	    const inflectedChars = badChars.length > 1 ? 'characters' : 'character'
  1135	
  1136	    logger.warn(
  1137	      colors.yellow(
  1138	        `${name} contains the ${charString} ${inflectedChars} (${colors.cyan(
  1139	          path,
  1140	        )}), which may not work when running Vite. Consider renaming the ${type} without the characters.`,
  1141	      ),
  1142	    )
  1143	  }
  1144	}
  1145	
  1146	const clientAlias = [
  1147	  {
  1148	    find: /^\/?@vite\/env/,
  1149	    replacement: path.posix.join(FS_PREFIX, normalizePath(ENV_ENTRY)),
  1150	  },
  1151	  {
  1152	    find: /^\/?@vite\/client/,
  1153	    replacement: path.posix.join(FS_PREFIX, normalizePath(CLIENT_ENTRY)),
  1154	  },
  1155	]
  1156	
  1157	/**
  1158	 * alias and preserveSymlinks are not per-environment options, but they are
  1159	 * included in the resolved environment options for convenience.
  1160	 */
  1161	function resolveEnvironmentResolveOptions(
  1162	  resolve: EnvironmentResolveOptions | undefined,
  1163	  alias: Alias[],
  1164	  preserveSymlinks: boolean,
  1165	  logger: Logger,
  1166	  /** undefined when resolving the top-level resolve options */
  1167	  consumer: 'client' | 'server' | undefined,
  1168	  // Backward compatibility
  1169	  isSsrTargetWebworkerEnvironment?: boolean,
  1170	): ResolvedAllResolveOptions {
  1171	  const resolvedResolve: ResolvedAllResolveOptions = mergeWithDefaults(
  1172	    {
  1173	      ...configDefaults.resolve,
  1174	      mainFields:
  1175	        consumer === undefined ||
  1176	        consumer === 'client' ||
  1177	        isSsrTargetWebworkerEnvironment
  1178	          ? DEFAULT_CLIENT_MAIN_FIELDS
  1179	          : DEFAULT_SERVER_MAIN_FIELDS,
  1180	      conditions:
  1181	        consumer === undefined ||
  1182	        consumer === 'client' ||
  1183	        isSsrTargetWebworkerEnvironment
  1184	          ? DEFAULT_CLIENT_CONDITIONS
  1185	          : DEFAULT_SERVER_CONDITIONS.filter((c) => c !== 'browser'),
  1186	      builtins:
  1187	        resolve?.builtins ??
  1188	        (consumer === 'server'
  1189	          ? isSsrTargetWebworkerEnvironment && resolve?.noExternal === true
  1190	            ? []
  1191	            : nodeLikeBuiltins
  1192	          : []),
  1193	    },
  1194	    resolve ?? {},
  1195	  )
  1196	  resolvedResolve.preserveSymlinks = preserveSymlinks
  1197	  resolvedResolve.alias = alias
  1198	
  1199	  if (
  1200	    // @ts-expect-error removed field
  1201	    resolve?.browserField === false &&
  1202	    resolvedResolve.mainFields.includes('browser')
  1203	  ) {
  1204	    logger.warn(
  1205	      colors.yellow(
  1206	        `\`resolve.browserField\` is set to false, but the option is removed in favour of ` +
  1207	          `the 'browser' string in \`resolve.mainFields\`. You may want to update \`resolve.mainFields\` ` +
  1208	          `to remove the 'browser' string and preserve the previous browser behaviour.`,
  1209	      ),
  1210	    )
  1211	  }
  1212	  return resolvedResolve
  1213	}
  1214	
  1215	function resolveResolveOptions(
  1216	  resolve: AllResolveOptions | undefined,
  1217	  logger: Logger,
  1218	): ResolvedAllResolveOptions {
  1219	  // resolve alias with internal client alias
  1220	  const alias = normalizeAlias(
  1221	    mergeAlias(clientAlias, resolve?.alias || configDefaults.resolve.alias),
  1222	  )
  1223	  const preserveSymlinks =
  1224	    resolve?.preserveSymlinks ?? configDefaults.resolve.preserveSymlinks
  1225	
  1226	  if (alias.some((a) => a.find === '/')) {
  1227	    logger.warn(
  1228	      colors.yellow(
  1229	        `\`resolve.alias\` contains an alias that maps \`/\`. ` +
  1230	          `This is not recommended as it can cause unexpected behavior when resolving paths.`,
  1231	      ),
  1232	    )
  1233	  }
  1234	  if (alias.some((a) => a.customResolver)) {
  1235	    logger.warn(
  1236	      colors.yellow(
  1237	        `\`resolve.alias\` contains an alias with \`customResolver\` option. ` +
  1238	          `This is deprecated and will be removed in Vite 9. ` +
  1239	          `Please use a custom plugin with a resolveId hook and \`enforce: 'pre'\` instead.`,
  1240	      ),
  1241	    )
  1242	  }
  1243	
  1244	  return resolveEnvironmentResolveOptions(
  1245	    resolve,
  1246	    alias,
  1247	    preserveSymlinks,
  1248	    logger,
  1249	    undefined,
  1250	  )
  1251	}
  1252	
  1253	// TODO: Introduce ResolvedDepOptimizationOptions
  1254	function resolveDepOptimizationOptions(
  1255	  optimizeDeps: DepOptimizationOptions | undefined,
  1256	  preserveSymlinks: boolean,
  1257	  forceOptimizeDeps: boolean | undefined,
  1258	  consumer: 'client' | 'server' | undefined,
  1259	  logger: Logger,
  1260	): DepOptimizationOptions {
  1261	  if (
  1262	    optimizeDeps?.rolldownOptions &&
  1263	    optimizeDeps?.rolldownOptions === optimizeDeps?.rollupOptions
  1264	  ) {
  1265	    delete optimizeDeps?.rollupOptions
  1266	  }
  1267	  const merged = mergeWithDefaults(
  1268	    {
  1269	      ...configDefaults.optimizeDeps,
  1270	      disabled: undefined, // do not set here to avoid deprecation warning
  1271	      noDiscovery: consumer !== 'client',
  1272	      force: forceOptimizeDeps ?? configDefaults.optimizeDeps.force,
  1273	    },
  1274	    optimizeDeps ?? {},
  1275	  )
  1276	  setupRollupOptionCompat(merged, 'optimizeDeps')
  1277	
  1278	  const rolldownOptions = merged.rolldownOptions as Exclude<
  1279	    DepOptimizationOptions['rolldownOptions'],
  1280	    undefined
  1281	  >
  1282	
  1283	  if (merged.esbuildOptions && Object.keys(merged.esbuildOptions).length > 0) {
  1284	    logger.warn(
  1285	      colors.yellow(
  1286	        `You or a plugin you are using have set \`optimizeDeps.esbuildOptions\` ` +
  1287	          `but this option is now deprecated. ` +
  1288	          `Vite now uses Rolldown to optimize the dependencies. ` +
  1289	          `Please use \`optimizeDeps.rolldownOptions\` instead.`,
  1290	      ),
  1291	    )
  1292	
  1293	    rolldownOptions.resolve ??= {}
  1294	    rolldownOptions.output ??= {}
  1295	    rolldownOptions.transform ??= {}
  1296	
  1297	    const setResolveOptions = <
  1298	      T extends keyof Exclude<RolldownOptions['resolve'], undefined>,
  1299	    >(
  1300	      key: T,
  1301	      value: Exclude<RolldownOptions['resolve'], undefined>[T],
  1302	    ) => {
  1303	      if (value !== undefined && rolldownOptions.resolve![key] === undefined) {
  1304	        rolldownOptions.resolve![key] = value
  1305	      }
  1306	    }
  1307	
  1308	    if (
  1309	      merged.esbuildOptions.minify !== undefined &&
  1310	      rolldownOptions.output.minify === undefined
  1311	    ) {
  1312	      rolldownOptions.output.minify = merged.esbuildOptions.minify
  1313	    }
  1314	    if (
  1315	      merged.esbuildOptions.treeShaking !== undefined &&
  1316	      rolldownOptions.treeshake === undefined
  1317	    ) {
  1318	      rolldownOptions.treeshake = merged.esbuildOptions.treeShaking
  1319	    }
  1320	    if (
  1321	      merged.esbuildOptions.define !== undefined &&
  1322	      rolldownOptions.transform.define === undefined
  1323	    ) {
  1324	      rolldownOptions.transform.define = merged.esbuildOptions.define
  1325	    }
  1326	    if (merged.esbuildOptions.loader !== undefined) {
  1327	      const loader = merged.esbuildOptions.loader
  1328	      rolldownOptions.moduleTypes ??= {}
  1329	      for (const [key, value] of Object.entries(loader)) {
  1330	        if (
  1331	          rolldownOptions.moduleTypes[key] === undefined &&
  1332	          value !== 'copy' &&
  1333	          value !== 'css' &&
  1334	          value !== 'default' &&
  1335	          value !== 'file' &&
  1336	          value !== 'local-css'
  1337	        ) {
  1338	          rolldownOptions.moduleTypes[key] = value
  1339	        }
  1340	      }
  1341	    }
  1342	    if (
  1343	      merged.esbuildOptions.preserveSymlinks !== undefined &&
  1344	      rolldownOptions.resolve.symlinks === undefined
  1345	    ) {
  1346	      rolldownOptions.resolve.symlinks = !merged.esbuildOptions.preserveSymlinks
  1347	    }
  1348	    setResolveOptions('extensions', merged.esbuildOptions.resolveExtensions)
  1349	    setResolveOptions('mainFields', merged.esbuildOptions.mainFields)
  1350	    setResolveOptions('conditionNames', merged.esbuildOptions.conditions)
  1351	    if (
  1352	      merged.esbuildOptions.keepNames !== undefined &&
  1353	      rolldownOptions.output.keepNames === undefined
  1354	    ) {
  1355	      rolldownOptions.output.keepNames = merged.esbuildOptions.keepNames
  1356	    }
  1357	
  1358	    if (
  1359	      merged.esbuildOptions.platform !== undefined &&
  1360	      rolldownOptions.platform === undefined
  1361	    ) {
  1362	      rolldownOptions.platform = merged.esbuildOptions.platform
  1363	    }
  1364	
  1365	    // NOTE: the following options cannot be converted
  1366	    // - legalComments
  1367	    // - target, supported (Vite used to transpile down to `ESBUILD_MODULES_TARGET`)
  1368	    // - ignoreAnnotations
  1369	    // - jsx, jsxFactory, jsxFragment, jsxImportSource, jsxDev, jsxSideEffects
  1370	    // - tsconfigRaw, tsconfig
  1371	
  1372	    // NOTE: the following options can be converted but probably not worth it
  1373	    // - sourceRoot
  1374	    // - sourcesContent (`output.sourcemapExcludeSources` is not supported by rolldown)
  1375	    // - drop
  1376	    // - dropLabels
  1377	    // - mangleProps, reserveProps, mangleQuoted, mangleCache
  1378	    // - minifyWhitespace, minifyIdentifiers, minifySyntax
  1379	    // - lineLimit
  1380	    // - charset
  1381	    // - pure (`treeshake.manualPureFunctions` is not supported by rolldown)
  1382	    // - alias (it probably does not work the same with `resolve.alias`)
  1383	    // - inject
  1384	    // - banner, footer
  1385	    // - nodePaths
  1386	
  1387	    // NOTE: the following options does not make sense to set / convert it
  1388	    // - globalName (we only use ESM format)
  1389	    // - color
  1390	    // - logLimit
  1391	    // - logOverride
  1392	    // - splitting
  1393	    // - outbase
  1394	    // - packages (this should not be set)
  1395	    // - allowOverwrite
  1396	    // - publicPath (`file` loader is not supported by rolldown)
  1397	    // - entryNames, chunkNames, assetNames (Vite does not support changing these options)
  1398	    // - stdin
  1399	    // - absWorkingDir
  1400	  }
  1401	
  1402	  merged.esbuildOptions ??= {}
  1403	  merged.esbuildOptions.preserveSymlinks ??= preserveSymlinks
  1404	
  1405	  rolldownOptions.resolve ??= {}
  1406	  rolldownOptions.resolve.symlinks ??= !preserveSymlinks
  1407	  rolldownOptions.output ??= {}
  1408	  rolldownOptions.output.topLevelVar ??= true
  1409	
  1410	  return merged
  1411	}
  1412	
  1413	async function setOptimizeDepsPluginNames(resolvedConfig: ResolvedConfig) {
  1414	  await Promise.all(
  1415	    Object.values(resolvedConfig.environments).map(async (environment) => {
  1416	      const plugins = environment.optimizeDeps.rolldownOptions?.plugins ?? []
  1417	      const outputPlugins =
  1418	        environment.optimizeDeps.rolldownOptions?.output?.plugins ?? []
  1419	      const flattenedPlugins = await asyncFlatten([plugins, outputPlugins])
  1420	
  1421	      const pluginNames = []
  1422	      for (const plugin of flattenedPlugins) {
  1423	        if (plugin && 'name' in plugin) {
  1424	          pluginNames.push(plugin.name)
  1425	        }
  1426	      }
  1427	      environment.optimizeDepsPluginNames = pluginNames
  1428	    }),
  1429	  )
  1430	}
  1431	
  1432	function applyDepOptimizationOptionCompat(resolvedConfig: ResolvedConfig) {
  1433	  if (
  1434	    resolvedConfig.optimizeDeps.esbuildOptions?.plugins &&
  1435	    resolvedConfig.optimizeDeps.esbuildOptions.plugins.length > 0
  1436	  ) {
  1437	    resolvedConfig.optimizeDeps.rolldownOptions ??= {}
  1438	    resolvedConfig.optimizeDeps.rolldownOptions.plugins ||= []
  1439	    ;(resolvedConfig.optimizeDeps.rolldownOptions.plugins as any[]).push(
  1440	      ...resolvedConfig.optimizeDeps.esbuildOptions.plugins.map((plugin) =>
  1441	        convertEsbuildPluginToRolldownPlugin(plugin),
  1442	      ),
  1443	    )
  1444	  }
  1445	}
  1446	
  1447	export function isResolvedConfig(
  1448	  inlineConfig: InlineConfig | ResolvedConfig,
  1449	): inlineConfig is ResolvedConfig {
  1450	  return (
  1451	    SYMBOL_RESOLVED_CONFIG in inlineConfig &&
  1452	    inlineConfig[SYMBOL_RESOLVED_CONFIG]
  1453	  )
  1454	}
  1455	
  1456	export async function resolveConfig(
  1457	  inlineConfig: InlineConfig,
  1458	  command: 'build' | 'serve',
  1459	  defaultMode = 'development',
  1460	  defaultNodeEnv = 'development',
  1461	  isPreview = false,
  1462	  /** @internal */
  1463	  patchConfig: ((config: ResolvedConfig) => void) | undefined = undefined,
  1464	  /** @internal */
  1465	  patchPlugins: ((resolvedPlugins: Plugin[]) => void) | undefined = undefined,
  1466	): Promise<ResolvedConfig> {
  1467	  let config = inlineConfig
  1468	  config.build ??= {}
  1469	  setupRollupOptionCompat(config.build, 'build')
  1470	  config.worker ??= {}
  1471	  setupRollupOptionCompat(config.worker, 'worker')
  1472	  config.optimizeDeps ??= {}
  1473	  setupRollupOptionCompat(config.optimizeDeps, 'optimizeDeps')
  1474	  if (config.ssr) {
  1475	    config.ssr.optimizeDeps ??= {}
  1476	    setupRollupOptionCompat(config.ssr.optimizeDeps, 'ssr.optimizeDeps')
  1477	  }
  1478	
  1479	  let configFileDependencies: string[] = []
  1480	  let mode = inlineConfig.mode || defaultMode
  1481	  // When `NODE_ENV` isn't set locally, ask Vite Task for it; the runner
  1482	  // also records the env in the build's cache key.
  1483	  if (process.env.NODE_ENV === undefined) {
  1484	    const nodeEnv = getEnv('NODE_ENV')
  1485	    if (nodeEnv !== undefined) {
  1486	      process.env.NODE_ENV = nodeEnv
  1487	    }
  1488	  }
  1489	  const isNodeEnvSet = !!process.env.NODE_ENV
  1490	  const packageCache: PackageCache = new Map()
  1491	
  1492	  // some dependencies e.g. @vue/compiler-* relies on NODE_ENV for getting
  1493	  // production-specific behavior, so set it early on
  1494	  if (!isNodeEnvSet) {
  1495	    process.env.NODE_ENV = defaultNodeEnv
  1496	  }
  1497	
  1498	  const configEnv: ConfigEnv = {
  1499	    mode,
  1500	    command,
  1501	    isSsrBuild: command === 'build' && !!config.build?.ssr,
  1502	    isPreview,
  1503	  }
  1504	
  1505	  let { configFile } = config
  1506	  if (configFile !== false) {
  1507	    const loadResult = await loadConfigFromFile(
  1508	      configEnv,
  1509	      configFile,
  1510	      config.root,
  1511	      config.logLevel,
  1512	      config.customLogger,
  1513	      config.configLoader,
  1514	    )
  1515	    if (loadResult) {
  1516	      config = mergeConfig(loadResult.config, config)
  1517	      configFile = loadResult.path
  1518	      configFileDependencies = loadResult.dependencies
  1519	    }
  1520	  }
  1521	
  1522	  // user config may provide an alternative mode. But --mode has a higher priority
  1523	  mode = inlineConfig.mode || config.mode || mode
  1524	  configEnv.mode = mode
  1525	
  1526	  const filterPlugin = (p: Plugin | FalsyPlugin): p is Plugin => {
  1527	    if (!p) {
  1528	      return false
  1529	    } else if (!p.apply) {
  1530	      return true
  1531	    } else if (typeof p.apply === 'function') {
  1532	      return p.apply({ ...config, mode }, configEnv)
  1533	    } else {
  1534	      return p.apply === command
  1535	    }
  1536	  }
  1537	
  1538	  // resolve plugins
  1539	  const rawPlugins = (await asyncFlatten(config.plugins || [])).filter(
  1540	    filterPlugin,
  1541	  )
  1542	
  1543	  const [prePlugins, normalPlugins, postPlugins] = sortUserPlugins(rawPlugins)
  1544	
  1545	  const isBuild = command === 'build'
  1546	
  1547	  // run config hooks
  1548	  const userPlugins = [...prePlugins, ...normalPlugins, ...postPlugins]
  1549	  config = await runConfigHook(config, userPlugins, configEnv)
  1550	
  1551	  // Ensure default client and ssr environments
  1552	  // If there are present, ensure order { client, ssr, ...custom }
  1553	  config.environments ??= {}
  1554	  if (
  1555	    !config.environments.ssr &&
  1556	    (!isBuild || config.ssr || config.build?.ssr)
  1557	  ) {
  1558	    // During dev, the ssr environment is always available even if it isn't configure
  1559	    // There is no perf hit, because the optimizer is initialized only if ssrLoadModule
  1560	    // is called.
  1561	    // During build, we only build the ssr environment if it is configured
  1562	    // through the deprecated ssr top level options or if it is explicitly defined
  1563	    // in the environments config
  1564	    config.environments = { ssr: {}, ...config.environments }
  1565	  }
  1566	  if (!config.environments.client) {
  1567	    config.environments = { client: {}, ...config.environments }
  1568	  }
  1569	
  1570	  // Define logger
  1571	  const logger = createLogger(config.logLevel, {
  1572	    allowClearScreen: config.clearScreen,
  1573	    customLogger: config.customLogger,
  1574	  })
  1575	
  1576	  const tsconfigPathsPlugin = userPlugins.find(
  1577	    (p) =>
  1578	      p.name === 'vite-tsconfig-paths' ||
  1579	      p.name === 'vite-plugin-tsconfig-paths',
  1580	  )
  1581	  if (tsconfigPathsPlugin) {
  1582	    logger.warnOnce(
  1583	      colors.yellow(
  1584	        `The plugin ${JSON.stringify(tsconfigPathsPlugin.name)} is detected. ` +
  1585	          `Vite now supports tsconfig paths resolution natively via the ${colors.bold('resolve.tsconfigPaths')} option. ` +
  1586	          `You can remove the plugin and set ${colors.bold('resolve.tsconfigPaths: true')} in your Vite config instead.`,
  1587	      ),
  1588	    )
  1589	  }
  1590	
  1591	  if (process.versions.pnp) {
  1592	    logger.warnOnce(
  1593	      colors.yellow(
  1594	        `Using Yarn PnP with Vite is discouraged and PnP-specific bugs will no longer be actively worked on. ` +
  1595	          `Please switch to a different ${colors.bold('nodeLinker')} mode or to a different package manager.`,
  1596	      ),
  1597	    )
  1598	  }
  1599	
  1600	  // resolve root
  1601	  let nonNormalizedResolvedRoot = config.root
  1602	    ? path.resolve(config.root)
  1603	    : process.cwd()
  1604	  if (!config.resolve?.preserveSymlinks) {
  1605	    try {
  1606	      nonNormalizedResolvedRoot = safeRealpathSync(nonNormalizedResolvedRoot)
  1607	    } catch {}
  1608	  }
  1609	  const resolvedRoot = normalizePath(nonNormalizedResolvedRoot)
  1610	
  1611	  checkBadCharactersInPath(
  1612	    'The project root',
  1613	    'directory',
  1614	    resolvedRoot,
  1615	    logger,
  1616	  )
  1617	
  1618	  const configEnvironmentsClient = config.environments!.client!
  1619	  configEnvironmentsClient.dev ??= {}
  1620	
  1621	  const deprecatedSsrOptimizeDepsConfig = config.ssr?.optimizeDeps ?? {}
  1622	  let configEnvironmentsSsr = config.environments!.ssr
  1623	
  1624	  // Backward compatibility: server.warmup.clientFiles/ssrFiles -> environment.dev.warmup
  1625	  const warmupOptions = config.server?.warmup
  1626	  if (warmupOptions?.clientFiles) {
  1627	    configEnvironmentsClient.dev.warmup = warmupOptions.clientFiles
  1628	  }
  1629	  if (warmupOptions?.ssrFiles) {
  1630	    configEnvironmentsSsr ??= {}
  1631	    configEnvironmentsSsr.dev ??= {}
  1632	    configEnvironmentsSsr.dev.warmup = warmupOptions.ssrFiles
  1633	  }
  1634	
  1635	  // Backward compatibility: merge ssr into environments.ssr.config as defaults
  1636	  if (configEnvironmentsSsr) {
  1637	    configEnvironmentsSsr.optimizeDeps = mergeConfig(
  1638	      deprecatedSsrOptimizeDepsConfig,
  1639	      configEnvironmentsSsr.optimizeDeps ?? {},
  1640	    )
  1641	
  1642	    // merge with `resolve` as the root to merge `noExternal` correctly
  1643	    configEnvironmentsSsr.resolve = mergeConfig(
  1644	      {
  1645	        resolve: {
  1646	          conditions: config.ssr?.resolve?.conditions,
  1647	          externalConditions: config.ssr?.resolve?.externalConditions,
  1648	          mainFields: config.ssr?.resolve?.mainFields,
  1649	          external: config.ssr?.external,
  1650	          noExternal: config.ssr?.noExternal,
  1651	        },
  1652	      } satisfies EnvironmentOptions,
  1653	      {
  1654	        resolve: configEnvironmentsSsr.resolve ?? {},
  1655	      },
  1656	    ).resolve
  1657	  }
  1658	
  1659	  if (config.build?.ssrEmitAssets !== undefined) {
  1660	    configEnvironmentsSsr ??= {}
  1661	    configEnvironmentsSsr.build ??= {}
  1662	    configEnvironmentsSsr.build.emitAssets = config.build.ssrEmitAssets
  1663	  }
  1664	
  1665	  // The client and ssr environment configs can't be removed by the user in the config hook
  1666	  if (!config.environments.client || (!config.environments.ssr && !isBuild)) {
  1667	    throw new Error(
  1668	      'Required environments configuration were stripped out in the config hook',
  1669	    )
  1670	  }
  1671	
  1672	  // Merge default environment config values
  1673	  const defaultEnvironmentOptions = getDefaultEnvironmentOptions(config)
  1674	  // Some top level options only apply to the client environment
  1675	  const defaultClientEnvironmentOptions: UserConfig = {
  1676	    ...defaultEnvironmentOptions,
  1677	    input: config.input,
  1678	    resolve: config.resolve, // inherit everything including mainFields and conditions
  1679	    optimizeDeps: config.optimizeDeps,
  1680	  }
  1681	  const defaultNonClientEnvironmentOptions: UserConfig = {
  1682	    ...defaultEnvironmentOptions,
  1683	    dev: {
  1684	      ...defaultEnvironmentOptions.dev,
  1685	      createEnvironment: undefined,
  1686	      warmup: undefined,
  1687	    },
  1688	    build: {
  1689	      ...defaultEnvironmentOptions.build,
  1690	      createEnvironment: undefined,
  1691	    },
  1692	  }
  1693	
  1694	  for (const name of Object.keys(config.environments)) {
  1695	    config.environments[name] = mergeConfig(
  1696	      name === 'client'
  1697	        ? defaultClientEnvironmentOptions
  1698	        : (deepClone(
  1699	            defaultNonClientEnvironmentOptions as object,
  1700	          ) as UserConfig),
  1701	      config.environments[name],
  1702	    )
  1703	  }
  1704	
  1705	  await runConfigEnvironmentHook(
  1706	    config.environments,
  1707	    userPlugins,
  1708	    logger,
  1709	    configEnv,
  1710	    config.ssr?.target === 'webworker',
  1711	  )
  1712	
  1713	  const isBundledDev = command === 'serve' && !!config.experimental?.bundledDev
  1714	
  1715	  // Backward compatibility: merge config.environments.client.resolve back into config.resolve
  1716	  config.resolve ??= {}
  1717	  config.resolve.conditions = config.environments.client.resolve?.conditions
  1718	  config.resolve.mainFields = config.environments.client.resolve?.mainFields
  1719	
  1720	  const resolvedDefaultResolve = resolveResolveOptions(config.resolve, logger)
  1721	
  1722	  const resolvedEnvironments: Record<string, ResolvedEnvironmentOptions> = {}
  1723	  for (const environmentName of Object.keys(config.environments)) {
  1724	    resolvedEnvironments[environmentName] = resolveEnvironmentOptions(
  1725	      config.environments[environmentName],
  1726	      resolvedDefaultResolve.alias,
  1727	      resolvedDefaultResolve.preserveSymlinks,
  1728	      inlineConfig.forceOptimizeDeps,
  1729	      logger,
  1730	      environmentName,
  1731	      isBuild,
  1732	      isBundledDev,
  1733	      config.ssr?.target === 'webworker',
  1734	      config.server?.preTransformRequests,
  1735	    )
  1736	  }
  1737	
  1738	  // Backward compatibility: merge environments.client.optimizeDeps back into optimizeDeps
  1739	  // The same object is assigned back for backward compatibility. The ecosystem is modifying
  1740	  // optimizeDeps in the ResolvedConfig hook, so these changes will be reflected on the
  1741	  // client environment.
  1742	  const backwardCompatibleOptimizeDeps =
  1743	    resolvedEnvironments.client.optimizeDeps
  1744	
  1745	  const resolvedDevEnvironmentOptions = resolveDevEnvironmentOptions(
  1746	    config.dev,
  1747	    // default environment options
  1748	    undefined,
  1749	    undefined,
  1750	  )
  1751	
  1752	  const resolvedBuildOptions = resolveBuildEnvironmentOptions(
  1753	    config.build ?? {},
  1754	    logger,
  1755	    undefined,
  1756	    isBundledDev,
  1757	    config.input,
  1758	  )
  1759	
  1760	  // Backward compatibility: merge config.environments.ssr back into config.ssr
  1761	  // so ecosystem SSR plugins continue to work if only environments.ssr is configured
  1762	  const patchedConfigSsr = {
  1763	    ...config.ssr,
  1764	    external: resolvedEnvironments.ssr?.resolve.external,
  1765	    noExternal: resolvedEnvironments.ssr?.resolve.noExternal,
  1766	    optimizeDeps: resolvedEnvironments.ssr?.optimizeDeps,
  1767	    resolve: {
  1768	      ...config.ssr?.resolve,
  1769	      conditions: resolvedEnvironments.ssr?.resolve.conditions,
  1770	      externalConditions: resolvedEnvironments.ssr?.resolve.externalConditions,
  1771	    },
  1772	  }
  1773	  const ssr = resolveSSROptions(
  1774	    patchedConfigSsr,
  1775	    resolvedDefaultResolve.preserveSymlinks,
  1776	  )
  1777	
  1778	  // load .env files
  1779	  // Backward compatibility: set envDir to false when envFile is false
  1780	  if (config.envFile === false) {
  1781	    logger.warn(
  1782	      colors.yellow(
  1783	        'The `envFile` option is deprecated, please use `envDir: false` instead.',
  1784	      ),
  1785	    )
  1786	  }
  1787	  let envDir = config.envFile === false ? false : config.envDir
  1788	  if (envDir !== false) {
  1789	    envDir = config.envDir
  1790	      ? normalizePath(path.resolve(resolvedRoot, config.envDir))
  1791	      : resolvedRoot
  1792	  }
  1793	
  1794	  const userEnv = loadEnv(mode, envDir, resolveEnvPrefix(config))
  1795	
  1796	  // Note it is possible for user to have a custom mode, e.g. `staging` where
  1797	  // development-like behavior is expected. This is indicated by NODE_ENV=development
  1798	  // loaded from `.staging.env` and set by us as VITE_USER_NODE_ENV
  1799	  const userNodeEnv = process.env.VITE_USER_NODE_ENV
  1800	  if (!isNodeEnvSet && userNodeEnv) {
  1801	    if (userNodeEnv === 'development') {
  1802	      process.env.NODE_ENV = 'development'
  1803	    } else {
  1804	      // NODE_ENV=production is not supported as it could break HMR in dev for frameworks like Vue
  1805	      logger.warn(
  1806	        `NODE_ENV=${userNodeEnv} is not supported in the .env file. ` +
  1807	          `Only NODE_ENV=development is supported to create a development build of your project. ` +
  1808	          `If you need to set process.env.NODE_ENV, you can set it in the Vite config instead.`,
  1809	      )
  1810	    }
  1811	  }
  1812	
  1813	  const isProduction = process.env.NODE_ENV === 'production'
  1814	
  1815	  // resolve public base url
  1816	  const relativeBaseShortcut = config.base === '' || config.base === './'
  1817	
  1818	  // During dev, we ignore relative base and fallback to '/'
  1819	  // For the SSR build, relative base isn't possible by means
  1820	  // of import.meta.url.
  1821	  const resolvedBase = relativeBaseShortcut
  1822	    ? !isBuild || config.build?.ssr
  1823	      ? '/'
  1824	      : './'
  1825	    : resolveBaseUrl(config.base, isBuild, logger)
  1826	
  1827	  // resolve cache directory
  1828	  // pkgDir may be an ancestor directory (findNearestPackageData walks up).
  1829	  // When no package.json is found but node_modules/ exists in resolvedRoot
  1830	  // (e.g. Deno projects using npm packages), prefer node_modules/.vite
  1831	  // over a bare .vite directory.
  1832	  const pkgDir = findNearestPackageData(resolvedRoot, packageCache)?.dir
  1833	  let cacheDir: string
  1834	  if (config.cacheDir) {
  1835	    cacheDir = path.resolve(resolvedRoot, config.cacheDir)
  1836	  } else if (pkgDir) {
  1837	    cacheDir = path.join(pkgDir, `node_modules/.vite`)
  1838	  } else {
  1839	    const nodeModulesDir = path.join(resolvedRoot, 'node_modules')
  1840	    cacheDir = fs.existsSync(nodeModulesDir)
  1841	      ? path.join(nodeModulesDir, `.vite`)
  1842	      : path.join(resolvedRoot, `.vite`)
  1843	  }
  1844	  cacheDir = normalizePath(cacheDir)
  1845	
  1846	  const assetsFilter =
  1847	    config.assetsInclude &&
  1848	    (!Array.isArray(config.assetsInclude) || config.assetsInclude.length)
  1849	      ? createFilter(config.assetsInclude)
  1850	      : () => false
  1851	
  1852	  const { publicDir } = config
  1853	  const resolvedPublicDir =
  1854	    publicDir !== false && publicDir !== ''
  1855	      ? normalizePath(
  1856	          path.resolve(
  1857	            resolvedRoot,
  1858	            typeof publicDir === 'string'
  1859	              ? publicDir
  1860	              : configDefaults.publicDir,
  1861	          ),
  1862	        )
  1863	      : ''
  1864	
  1865	  const input = normalizeInput(config.input)
  1866	  const server = await resolveServerOptions(resolvedRoot, config.server, logger)
  1867	
  1868	  const builder = resolveBuilderOptions(config.builder)
  1869	
  1870	  const BASE_URL = resolvedBase
  1871	
  1872	  const resolvedConfigContext = new BasicMinimalPluginContext(
  1873	    {
  1874	      ...basePluginContextMeta,
  1875	      watchMode:
  1876	        (command === 'serve' && !isPreview) ||
  1877	        (command === 'build' && !!resolvedBuildOptions.watch),
  1878	    } satisfies PluginContextMeta,
  1879	    logger,
  1880	  )
  1881	
  1882	  let resolved: ResolvedConfig
  1883	
  1884	  let createUserWorkerPlugins = config.worker?.plugins
  1885	  if (Array.isArray(createUserWorkerPlugins)) {
  1886	    // @ts-expect-error backward compatibility
  1887	    createUserWorkerPlugins = () => config.worker?.plugins
  1888	
  1889	    logger.warn(
  1890	      colors.yellow(
  1891	        `worker.plugins is now a function that returns an array of plugins. ` +
  1892	          `Please update your Vite config accordingly.\n`,
  1893	      ),
  1894	    )
  1895	  }
  1896	
  1897	  const createWorkerPlugins = async function (bundleChain: string[]) {
  1898	    // Some plugins that aren't intended to work in the bundling of workers (doing post-processing at build time for example).
  1899	    // And Plugins may also have cached that could be corrupted by being used in these extra rollup calls.
  1900	    // So we need to separate the worker plugin from the plugin that vite needs to run.
  1901	    const rawWorkerUserPlugins = (
  1902	      await asyncFlatten(createUserWorkerPlugins?.() || [])
  1903	    ).filter(filterPlugin)
  1904	
  1905	    // resolve worker
  1906	    let workerConfig = mergeConfig({}, config)
  1907	    const [workerPrePlugins, workerNormalPlugins, workerPostPlugins] =
  1908	      sortUserPlugins(rawWorkerUserPlugins)
  1909	
  1910	    // run config hooks
  1911	    const workerUserPlugins = [
  1912	      ...workerPrePlugins,
  1913	      ...workerNormalPlugins,
  1914	      ...workerPostPlugins,
  1915	    ]
  1916	    workerConfig = await runConfigHook(
  1917	      workerConfig,
  1918	      workerUserPlugins,
  1919	      configEnv,
  1920	    )
  1921	
  1922	    const workerResolved: ResolvedConfig = {
  1923	      ...workerConfig,
  1924	      ...resolved,
  1925	      isWorker: true,
  1926	      mainConfig: resolved,
  1927	      bundleChain,
  1928	    }
  1929	
  1930	    // Plugins resolution needs the resolved config (minus plugins) so we need to mutate here
  1931	    ;(workerResolved.plugins as Plugin[]) = await resolvePlugins(
  1932	      workerResolved,
  1933	      workerPrePlugins,
  1934	      workerNormalPlugins,
  1935	      workerPostPlugins,
  1936	    )
  1937	
  1938	    // run configResolved hooks
  1939	    await Promise.all(
  1940	      createPluginHookUtils(workerResolved.plugins)
  1941	        .getSortedPluginHooks('configResolved')
  1942	        .map((hook) => hook.call(resolvedConfigContext, workerResolved)),
  1943	    )
  1944	
  1945	    // Resolve environment plugins after configResolved because there are
  1946	    // downstream projects modifying the plugins in it. This may change
  1947	    // once the ecosystem is ready.
  1948	    // During Build the client environment is used to bundle the worker
  1949	    // Avoid overriding the mainConfig (resolved.environments.client)
  1950	    ;(workerResolved.environments as Record<
  1951	      string,
  1952	      ResolvedEnvironmentOptions
  1953	    >) = {
  1954	      ...workerResolved.environments,
  1955	      client: {
  1956	        ...workerResolved.environments.client,
  1957	        plugins: await resolveEnvironmentPlugins(
  1958	          new PartialEnvironment('client', workerResolved),
  1959	        ),
  1960	      },
  1961	    }
  1962	
  1963	    return workerResolved
  1964	  }
  1965	
  1966	  const resolvedWorkerOptions: Omit<
  1967	    ResolvedWorkerOptions,
  1968	    'rolldownOptions'
  1969	  > & {
  1970	    rolldownOptions: ResolvedWorkerOptions['rolldownOptions'] | undefined
  1971	  } = {
  1972	    format: config.worker?.format || 'iife',
  1973	    plugins: createWorkerPlugins,
  1974	    rollupOptions: config.worker?.rollupOptions || {},
  1975	    rolldownOptions: config.worker?.rolldownOptions, // will be set by setupRollupOptionCompat if undefined
  1976	  }
  1977	  setupRollupOptionCompat(resolvedWorkerOptions, 'worker')
  1978	
  1979	  const base = withTrailingSlash(resolvedBase)
  1980	
  1981	  const preview = resolvePreviewOptions(config.preview, server)
  1982	
  1983	  const additionalAllowedHosts = getAdditionalAllowedHosts(server, preview)
  1984	  if (Array.isArray(server.allowedHosts)) {
  1985	    server.allowedHosts.push(...additionalAllowedHosts)
  1986	  }
  1987	  if (Array.isArray(preview.allowedHosts)) {
  1988	    preview.allowedHosts.push(...additionalAllowedHosts)
  1989	  }
  1990	
  1991	  let oxc: OxcOptions | false | undefined = config.oxc
  1992	  if (config.esbuild) {
  1993	    if (config.oxc) {
  1994	      logger.warn(
  1995	        colors.yellow(
  1996	          `Both esbuild and oxc options were set. oxc options will be used and esbuild options will be ignored.`,
  1997	        ) +
  1998	          ` The following esbuild options were set: \`${inspect(config.esbuild)}\``,
  1999	      )
  2000	    } else {
