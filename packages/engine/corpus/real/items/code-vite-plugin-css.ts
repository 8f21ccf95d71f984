import fs from 'node:fs'
import fsp from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import type { RawSourceMap } from '@jridgewell/remapping'
import { dataToEsm } from '@rollup/pluginutils'
import { WorkerWithFallback } from 'artichokie'
import type Less from 'less'
import type {
  TransformAttributeResult as LightningCssTransformAttributeResult,
  TransformResult as LightningCssTransformResult,
} from 'lightningcss'
import MagicString from 'magic-string'
import colors from 'picocolors'
import type * as PostCSS from 'postcss'
import postcssrc from 'postcss-load-config'
import type {
  ExistingRawSourceMap,
  InternalModuleFormat,
  MinimalPluginContext,
  OutputAsset,
  OutputChunk,
  RenderedChunk,
  RenderedModule,
  RollupError,
  SourceMapInput,
} from 'rolldown'
import type Sass from 'sass'
import type Stylus from 'stylus'
import { globSync } from 'tinyglobby'
import type {
  LessPreprocessorBaseOptions,
  SassModernPreprocessBaseOptions,
  StylusPreprocessorBaseOptions,
} from '#types/internal/cssPreprocessorOptions'
import type { EsbuildTransformOptions } from '#types/internal/esbuildOptions'
import type { LightningCSSOptions } from '#types/internal/lightningcssOptions'
import type { CustomPluginOptionsVite } from '#types/metadata'
import { type DevEnvironment } from '..'
import { NULL_BYTE_PLACEHOLDER } from '../../shared/constants'
import { cleanUrl, isWindows, slash } from '../../shared/utils'
import { PartialEnvironment } from '../baseEnvironment'
import {
  createToImportMetaURLBasedRelativeRuntime,
  resolveUserExternal,
  toOutputFilePathInCss,
  toOutputFilePathInJS,
} from '../build'
import type { LibraryOptions } from '../build'
import type { ResolvedConfig } from '../config'
import {
  CLIENT_PUBLIC_PATH,
  CSS_LANGS_RE,
  DEV_PROD_CONDITION,
  ESBUILD_BASELINE_WIDELY_AVAILABLE_TARGET,
  SPECIAL_QUERY_RE,
} from '../constants'
import { createBackCompatIdResolver } from '../idResolver'
import type { ResolveIdFn } from '../idResolver'
import type { Logger } from '../logger'
import { nodeResolveWithVite } from '../nodeResolve'
import type { PackageCache } from '../packages'
import { findNearestMainPackageData } from '../packages'
import type { Plugin } from '../plugin'
import { checkPublicFile } from '../publicDir'
import type { EnvironmentModuleNode } from '../server/moduleGraph'
import type { TransformPluginContext } from '../server/pluginContainer'
import { searchForWorkspaceRoot } from '../server/searchRoot'
import { getCodeWithSourcemap, injectSourcesContent } from '../server/sourcemap'
import {
  _dirname,
  arraify,
  asyncReplace,
  combineSourcemaps,
  createSerialPromiseQueue,
  emptyCssComments,
  encodeURIPath,
  escapeRegex,
  generateCodeFrame,
  getFileStartIndex,
  getHash,
  getPackageManagerCommand,
  getPkgName,
  injectQuery,
  isCSSRequest,
  isDataUrl,
  isExternalUrl,
  isObject,
  joinUrlSegments,
  lineTerminatorRE,
  mergeWithDefaults,
  normalizePath,
  processSrcSet,
  removeDirectQuery,
  removeUrlQuery,
  stripBomTag,
  urlRE,
} from '../utils'
import {
  assetUrlRE,
  cssEntriesMap,
  fileToUrl,
  publicAssetUrlCache,
  publicAssetUrlRE,
  publicFileToBuiltUrl,
  renderAssetUrlInJS,
} from './asset'
import type { ESBuildOptions } from './esbuild'
import { addToHTMLProxyTransformResult, getImportMap } from './html'
import { getChunkOriginalFileName } from './manifest'
import { IIFE_BEGIN_RE, UMD_BEGIN_RE } from './oxc'

const decoder = new TextDecoder()
// const debug = createDebugger('vite:css')

/**
 * The shape of a PostCSS config file (e.g. `postcss.config.js`), re-exported
 * from the `postcss-load-config` version that Vite uses to load it. Use it to
 * write a type-safe PostCSS config:
 *
 * ```ts
 * import type { PostcssUserConfig } from 'vite'
 *
 * const config: PostcssUserConfig = { plugins: [] }
 * export default config
 * ```
 */
export type { Config as PostcssUserConfig } from 'postcss-load-config'

export interface CSSOptions {
  /**
   * Using lightningcss is an experimental option to handle CSS modules,
   * assets and imports via Lightning CSS. It requires to install it as a
   * peer dependency.
   *
   * @default 'postcss'
   * @experimental
   */
  transformer?: 'postcss' | 'lightningcss'
  /**
   * https://github.com/css-modules/postcss-modules
   */
  modules?: CSSModulesOptions | false
  /**
   * Options for preprocessors.
   *
   * In addition to options specific to each processors, Vite supports `additionalData` option.
   * The `additionalData` option can be used to inject extra code for each style content.
   */
  preprocessorOptions?: {
    scss?: SassPreprocessorOptions
    sass?: SassPreprocessorOptions
    less?: LessPreprocessorOptions
    styl?: StylusPreprocessorOptions
    stylus?: StylusPreprocessorOptions
  }

  /**
   * If this option is set, preprocessors will run in workers when possible.
   * `true` means the number of CPUs minus 1.
   *
   * @default true
   */
  preprocessorMaxWorkers?: number | true
  postcss?:
    | string
    | (PostCSS.ProcessOptions & {
        plugins?: PostCSS.AcceptedPlugin[]
      })
  /**
   * Enables css sourcemaps during dev
   * @default false
   * @experimental
   */
  devSourcemap?: boolean

  /**
   * @experimental
   */
  lightningcss?: LightningCSSOptions
}

export interface CSSModulesOptions {
  getJSON?: (
    cssFileName: string,
    json: Record<string, string>,
    outputFileName: string,
  ) => void
  scopeBehaviour?: 'global' | 'local'
  globalModulePaths?: RegExp[]
  exportGlobals?: boolean
  generateScopedName?:
    | string
    | ((name: string, filename: string, css: string) => string)
  hashPrefix?: string
  /**
   * default: undefined
   */
  localsConvention?:
    | 'camelCase'
    | 'camelCaseOnly'
    | 'dashes'
    | 'dashesOnly'
    | ((
        originalClassName: string,
        generatedClassName: string,
        inputFile: string,
      ) => string)
}

const _cssConfigDefaults = Object.freeze({
  /** @experimental */
  transformer: 'postcss',
  // modules
  // preprocessorOptions
  preprocessorMaxWorkers: true,
  // postcss
  /** @experimental */
  devSourcemap: false,
  // lightningcss
} satisfies CSSOptions)
export const cssConfigDefaults: Readonly<Partial<CSSOptions>> =
  _cssConfigDefaults

export type ResolvedCSSOptions = Omit<CSSOptions, 'lightningcss'> &
  Required<Pick<CSSOptions, 'transformer' | 'devSourcemap'>> & {
    lightningcss?: LightningCSSOptions
  }

export function resolveCSSOptions(
  options: CSSOptions | undefined,
): ResolvedCSSOptions {
  const resolved = mergeWithDefaults(_cssConfigDefaults, options ?? {})
  if (resolved.transformer === 'lightningcss') {
    resolved.lightningcss ??= {}
    resolved.lightningcss.targets ??= convertTargets(
      ESBUILD_BASELINE_WIDELY_AVAILABLE_TARGET,
    )
  }
  return resolved
}

const cssModuleRE = new RegExp(`\\.module${CSS_LANGS_RE.source}`)
const directRequestRE = /[?&]direct\b/
const htmlProxyRE = /[?&]html-proxy\b/
const htmlProxyIndexRE = /&index=(\d+)/
const commonjsProxyRE = /[?&]commonjs-proxy/
const inlineRE = /[?&]inline\b/
const inlineCSSRE = /[?&]inline-css\b/
const styleAttrRE = /[?&]style-attr\b/
const styleTagCloseRE = /<\/style(?=[\t\n\f\r />])/gi
const functionCallRE = /^[A-Z_][.\w-]*\(/i
const transformOnlyRE = /[?&]transform-only\b/
const nonEscapedDoubleQuoteRe = /(?<!\\)"/g

const defaultCssBundleName = 'style.css'

const enum PreprocessLang {
  less = 'less',
  sass = 'sass',
  scss = 'scss',
  styl = 'styl',
  stylus = 'stylus',
}
// eslint-disable-next-line @typescript-eslint/no-unused-vars -- bug in typescript-eslint
const enum PureCssLang {
  css = 'css',
}
const enum PostCssDialectLang {
  sss = 'sugarss',
}
type CssLang =
  | keyof typeof PureCssLang
  | keyof typeof PreprocessLang
  | keyof typeof PostCssDialectLang

export const isModuleCSSRequest = (request: string): boolean =>
  cssModuleRE.test(request)

export const isDirectCSSRequest = (request: string): boolean =>
  CSS_LANGS_RE.test(request) && directRequestRE.test(request)

export const isDirectRequest = (request: string): boolean =>
  directRequestRE.test(request)

const cssModulesCache = new WeakMap<
  ResolvedConfig,
  Map<string, Record<string, string>>
>()

export const removedPureCssFilesCache: WeakMap<
  ResolvedConfig,
  Map<string, RenderedChunk>
> = new WeakMap()

// Used only if the config doesn't code-split CSS (builds a single CSS file)
export const cssBundleNameCache: WeakMap<ResolvedConfig, string> = new WeakMap()

const postcssConfigCache = new WeakMap<
  ResolvedConfig,
  PostCSSConfigResult | null | Promise<PostCSSConfigResult | null>
>()

function encodePublicUrlsInCSS(config: ResolvedConfig) {
  return config.command === 'build'
}

const cssUrlAssetRE = /__VITE_CSS_URL__([\da-f]+)__/g

/**
 * Plugin applied before user plugins
 */
export function cssPlugin(config: ResolvedConfig): Plugin {
  const isBuild = config.command === 'build'
  let moduleCache: Map<string, Record<string, string>>

  const idResolver = createBackCompatIdResolver(config, {
    preferRelative: true,
    tryIndex: false,
    extensions: [],
  })

  let preprocessorWorkerController: PreprocessorWorkerController | undefined

  // warm up cache for resolved postcss config
  if (config.css.transformer !== 'lightningcss') {
    resolvePostcssConfig(config).catch(() => {
      /* will be handled later */
    })
  }

  return {
    name: 'vite:css',

    buildStart() {
      // Ensure a new cache for every build (i.e. rebuilding in watch mode)
      moduleCache = new Map<string, Record<string, string>>()
      cssModulesCache.set(config, moduleCache)

      removedPureCssFilesCache.set(config, new Map<string, RenderedChunk>())

      preprocessorWorkerController = createPreprocessorWorkerController(
        normalizeMaxWorkers(config.css.preprocessorMaxWorkers),
      )
      preprocessorWorkerControllerCache.set(
        config,
        preprocessorWorkerController,
      )
    },

    async buildEnd() {
      await preprocessorWorkerController?.close()
    },

    load: {
      filter: {
        id: CSS_LANGS_RE,
      },
      handler(id) {
        if (urlRE.test(id)) {
          if (isModuleCSSRequest(id)) {
            throw new Error(
              `?url is not supported with CSS modules. (tried to import ${JSON.stringify(
                id,
              )})`,
            )
          }

          // *.css?url
          // in dev, it's handled by assets plugin.
          if (isBuild) {
            id = injectQuery(removeUrlQuery(id), 'transform-only')
            return (
              `import ${JSON.stringify(id)};` +
              `export default "__VITE_CSS_URL__${Buffer.from(id).toString(
                'hex',
              )}__"`
            )
          }
        }
      },
    },
    transform: {
      filter: {
        id: {
          include: CSS_LANGS_RE,
          exclude: [commonjsProxyRE, SPECIAL_QUERY_RE],
        },
      },
      async handler(raw, id) {
        const { environment } = this
        const resolveUrl = (url: string, importer?: string) =>
          idResolver(environment, url, importer)

        const urlResolver: CssUrlResolver = async (url, importer) => {
          const decodedUrl = decodeURI(url)
          if (checkPublicFile(decodedUrl, config)) {
            if (encodePublicUrlsInCSS(config)) {
              return [publicFileToBuiltUrl(decodedUrl, config), undefined]
            } else {
              const base = joinUrlSegments(
                config.server.origin ?? '',
                config.base,
              )
              return [joinUrlSegments(base, decodedUrl), undefined]
            }
          }
          const [id, fragment] = decodedUrl.split('#')
          let resolved = await resolveUrl(id, importer)
          if (resolved) {
            if (fragment) resolved += '#' + fragment
            let url = await fileToUrl(this, resolved, 'string')
            // Inherit HMR timestamp if this asset was invalidated
            if (!url.startsWith('data:') && this.environment.mode === 'dev') {
              const mod = [
                ...(this.environment.moduleGraph.getModulesByFile(resolved) ??
                  []),
              ].find((mod) => mod.type === 'asset')
              if (mod?.lastHMRTimestamp) {
                url = injectQuery(url, `t=${mod.lastHMRTimestamp}`)
              }
            }
            return [url, cleanUrl(resolved)]
          }
          if (config.command === 'build') {
            const isExternal = config.build.rolldownOptions.external
              ? resolveUserExternal(
                  config.build.rolldownOptions.external,
                  decodedUrl, // use URL as id since id could not be resolved
                  id,
                  false,
                )
              : false

            if (!isExternal) {
              // #9800 If we cannot resolve the css url, leave a warning.
              config.logger.warnOnce(
                `\n${decodedUrl} referenced in ${id} didn't resolve at build time, it will remain unchanged to be resolved at runtime`,
              )
            }
          }
          return [url, undefined]
        }

        const {
          code: css,
          modules,
          deps,
          map,
        } = await compileCSS(
          environment,
          id,
          raw,
          preprocessorWorkerController!,
          urlResolver,
        )
        if (modules) {
          moduleCache.set(id, modules)
        }

        if (deps) {
          for (const file of deps) {
            this.addWatchFile(file)
          }
        }

        return {
          code: css,
          map,
        }
      },
    },
  }
}

/**
 * Plugin applied after user plugins
 */
export function cssPostPlugin(config: ResolvedConfig): Plugin {
  // styles initialization in buildStart causes a styling loss in watch
  const styles = new Map<string, string>()
  // queue to emit css serially to guarantee the files are emitted in a deterministic order
  let codeSplitEmitQueue = createSerialPromiseQueue<string>()
  const urlEmitQueue = createSerialPromiseQueue<unknown>()
  let pureCssChunks: Set<RenderedChunk>
  let chunkCssReferences: Map<string, string>

  // when there are multiple rollup outputs and extracting CSS, only emit once,
  // since output formats have no effect on the generated CSS.
  let hasEmitted = false
  let chunkCSSMap: Map<string, string>

  const rolldownOptionsOutput = config.build.rolldownOptions.output
  const assetFileNames = (
    Array.isArray(rolldownOptionsOutput)
      ? rolldownOptionsOutput[0]
      : rolldownOptionsOutput
  )?.assetFileNames
  const getCssAssetDirname = (
    cssAssetName: string,
    originalFileName?: string,
  ) => {
    const cssAssetNameDir = path.dirname(cssAssetName)
    if (!assetFileNames) {
      return path.join(config.build.assetsDir, cssAssetNameDir)
    } else if (typeof assetFileNames === 'string') {
      return path.join(path.dirname(assetFileNames), cssAssetNameDir)
    } else {
      return path.dirname(
        assetFileNames({
          type: 'asset',
          name: cssAssetName,
          names: [cssAssetName],
          originalFileName,
          originalFileNames: originalFileName ? [originalFileName] : [],
          source: '/* vite internal call, ignore */',
        }),
      )
    }
  }

  function getCssBundleName() {
    const cached = cssBundleNameCache.get(config)
    if (cached) return cached

    const cssBundleName = config.build.lib
      ? resolveLibCssFilename(
          config.build.lib,
          config.root,
          config.packageCache,
        )
      : defaultCssBundleName
    cssBundleNameCache.set(config, cssBundleName)
    return cssBundleName
  }

  return {
    name: 'vite:css-post',

    renderStart() {
      // Ensure new caches for every build (i.e. rebuilding in watch mode)
      pureCssChunks = new Set<RenderedChunk>()
      chunkCssReferences = new Map<string, string>()
      hasEmitted = false
      chunkCSSMap = new Map()
      codeSplitEmitQueue = createSerialPromiseQueue()
    },

    transform: {
      filter: {
        id: {
          include: CSS_LANGS_RE,
          exclude: [commonjsProxyRE, SPECIAL_QUERY_RE],
        },
      },
      async handler(css, id) {
        css = stripBomTag(css)

        // cache css compile result to map
        // and then use the cache replace inline-style-flag
        // when `generateBundle` in vite:build-html plugin and devHtmlHook
        const inlineCSS = inlineCSSRE.test(id)
        const isHTMLProxy = htmlProxyRE.test(id)
        if (inlineCSS && isHTMLProxy) {
          if (styleAttrRE.test(id)) {
            css = css.replace(/"/g, '&quot;')
          } else {
            if (config.command !== 'serve' && config.build.cssMinify) {
              css = await minifyCSS(css, config, true, id)
            }
            css = css.replace(styleTagCloseRE, '<\\/style')
          }
          const index = htmlProxyIndexRE.exec(id)?.[1]
          if (index == null) {
            throw new Error(`HTML proxy index in "${id}" not found`)
          }
          addToHTMLProxyTransformResult(
            `${getHash(cleanUrl(id))}_${Number.parseInt(index)}`,
            css,
          )
          return {
            code: `export default ''`,
            map: { mappings: '' },
          }
        }

        const inlined = inlineRE.test(id)
        const modules = cssModulesCache.get(config)!.get(id)

        // #6984, #7552
        // `foo.module.css` => modulesCode
        // `foo.module.css?inline` => cssContent
        const modulesCode =
          modules &&
          !inlined &&
          dataToEsm(modules, { namedExports: true, preferConst: true })

        if (config.command === 'serve') {
          const getContentWithSourcemap = async (content: string) => {
            if (config.css.devSourcemap) {
              const sourcemap = this.getCombinedSourcemap()
              if (sourcemap.mappings) {
                await injectSourcesContent(
                  sourcemap,
                  cleanUrl(id),
                  config.logger,
                )
              }
              return getCodeWithSourcemap('css', content, sourcemap)
            }
            return content
          }

          if (isDirectCSSRequest(id)) {
            return null
          }
          if (inlined) {
            return `export default ${JSON.stringify(css)}`
          }
          if (this.environment.config.consumer === 'server') {
            return modulesCode || 'export {}'
          }

          const cssContent = await getContentWithSourcemap(css)
          const code = [
            this.environment.config.isBundled
              ? `const { updateStyle: __vite__updateStyle, removeStyle: __vite__removeStyle } = import.meta.hot._internal`
              : `import { updateStyle as __vite__updateStyle, removeStyle as __vite__removeStyle } from ${JSON.stringify(
                  path.posix.join(config.base, CLIENT_PUBLIC_PATH),
                )}`,
            `const __vite__id = ${JSON.stringify(id)}`,
            `const __vite__css = ${JSON.stringify(cssContent)}`,
            `__vite__updateStyle(__vite__id, __vite__css)`,
            // css modules exports change on edit so it can't self accept
            `${modulesCode || 'import.meta.hot.accept()'}`,
            `import.meta.hot.prune(() => __vite__removeStyle(__vite__id))`,
          ].join('\n')
          return { code, map: { mappings: '' }, moduleType: 'js' }
        }

        // build CSS handling ----------------------------------------------------

        // record css
        if (!inlined) {
          styles.set(id, css)
        }

        let code: string
        if (modulesCode) {
          code = modulesCode
        } else if (inlined) {
          let content = css
          if (config.build.cssMinify) {
            content = await minifyCSS(content, config, true, id)
          }
          code = `export default ${JSON.stringify(content)}`
        } else {
          // empty module when it's not a CSS module nor `?inline`
          code = ''
        }

        return {
          code,
          map: { mappings: '' },
          // avoid the css module from being tree-shaken so that we can retrieve
          // it in renderChunk()
          moduleSideEffects: modulesCode || inlined ? false : 'no-treeshake',
          moduleType: 'js',
        }
      },
    },

    ...(config.command === 'build'
      ? {
          async renderChunk(code, chunk, opts, meta) {
            let chunkCSS: string | undefined
            const renderedModules = new Proxy(
              {} as Record<string, RenderedModule | undefined>,
              {
                get(_target, p) {
                  for (const name in meta.chunks) {
                    const modules = meta.chunks[name].modules
                    const module = modules[p as string]
                    if (module) {
                      return module
                    }
                  }
                },
              },
            )
            // the chunk is empty if it's a dynamic entry chunk that only contains a CSS import
            const isJsChunkEmpty = code === '' && !chunk.isEntry
            let isPureCssChunk = chunk.exports.length === 0
            const ids = Object.keys(chunk.modules)
            for (const id of ids) {
              if (styles.has(id)) {
                // ?transform-only is used for ?url and shouldn't be included in normal CSS chunks
                if (transformOnlyRE.test(id)) {
                  continue
                }

                // If this CSS is scoped to its importers exports, check if those importers exports
                // are rendered in the chunks. If they are not, we can skip bundling this CSS.
                const cssScopeTo =
                  this.getModuleInfo(id)?.meta?.vite?.cssScopeTo
                if (
                  cssScopeTo &&
                  !isCssScopeToRendered(cssScopeTo, renderedModules)
                ) {
                  continue
                }

                // a css module contains JS, so it makes this not a pure css chunk
                if (cssModuleRE.test(id)) {
                  isPureCssChunk = false
                }

                chunkCSS = (chunkCSS || '') + styles.get(id)
              } else if (!isJsChunkEmpty) {
                // if the module does not have a style, then it's not a pure css chunk.
                // this is true because in the `transform` hook above, only modules
                // that are css gets added to the `styles` map.
                isPureCssChunk = false
              }
            }

            const publicAssetUrlMap = publicAssetUrlCache.get(config)!

            // resolve asset URL placeholders to their built file URLs
            const resolveAssetUrlsInCss = (
              chunkCSS: string,
              cssAssetName: string,
              originalFileName?: string,
            ) => {
              const encodedPublicUrls = encodePublicUrlsInCSS(config)

              const relative = config.base === './' || config.base === ''
              const cssAssetDirname =
                encodedPublicUrls || relative
                  ? slash(getCssAssetDirname(cssAssetName, originalFileName))
                  : undefined

              const toRelative = (filename: string) => {
                // relative base + extracted CSS
                const relativePath = normalizePath(
                  path.relative(cssAssetDirname!, filename),
                )
                return relativePath[0] === '.'
                  ? relativePath
                  : './' + relativePath
              }

              // replace asset url references with resolved url.
              chunkCSS = chunkCSS.replace(assetUrlRE, (_, fileHash) => {
                const filename = this.getFileName(fileHash)
                chunk.viteMetadata!.importedAssets.add(cleanUrl(filename))
                return encodeURIPath(
                  toOutputFilePathInCss(
                    filename,
                    'asset',
                    cssAssetName,
                    'css',
                    config,
                    toRelative,
                  ),
                )
              })
              // resolve public URL from CSS paths
              if (encodedPublicUrls) {
                const relativePathToPublicFromCSS = normalizePath(
                  path.relative(cssAssetDirname!, ''),
                )
                chunkCSS = chunkCSS.replace(publicAssetUrlRE, (_, hash) => {
                  const publicUrl = publicAssetUrlMap.get(hash)!.slice(1)
                  return encodeURIPath(
                    toOutputFilePathInCss(
                      publicUrl,
                      'public',
                      cssAssetName,
                      'css',
                      config,
                      () => `${relativePathToPublicFromCSS}/${publicUrl}`,
                    ),
                  )
                })
              }
              return chunkCSS
            }

            function ensureFileExt(name: string, ext: string) {
              return normalizePath(
                path.format({ ...path.parse(name), base: undefined, ext }),
              )
            }

            let s: MagicString | undefined
            const urlEmitTasks: Array<{
              cssAssetName: string
              originalFileName: string
              content: string
              start: number
              end: number
            }> = []

            if (code.includes('__VITE_CSS_URL__')) {
              let match: RegExpExecArray | null
              cssUrlAssetRE.lastIndex = 0
              while ((match = cssUrlAssetRE.exec(code))) {
                const [full, idHex] = match
                const id = Buffer.from(idHex, 'hex').toString()
                const originalFileName = cleanUrl(id)
                const cssAssetName = ensureFileExt(
                  path.basename(originalFileName),
                  '.css',
                )
                if (!styles.has(id)) {
                  throw new Error(
                    `css content for ${JSON.stringify(id)} was not found`,
                  )
                }

                let cssContent = styles.get(id)!

                cssContent = resolveAssetUrlsInCss(
                  cssContent,
                  cssAssetName,
                  originalFileName,
                )

                urlEmitTasks.push({
                  cssAssetName,
                  originalFileName,
                  content: cssContent,
                  start: match.index,
                  end: match.index + full.length,
                })
              }
            }

            // should await even if this chunk does not include __VITE_CSS_URL__
            // so that code after this line runs in the same order
            await urlEmitQueue.run(async () =>
              Promise.all(
                urlEmitTasks.map(async (info) => {
                  info.content = await finalizeCss(info.content, config)
                }),
              ),
            )
            if (urlEmitTasks.length > 0) {
              const toRelativeRuntime =
                createToImportMetaURLBasedRelativeRuntime(
                  opts.format,
                  config.isWorker,
                )
              s ||= new MagicString(code)

              for (const {
                cssAssetName,
                originalFileName,
                content,
                start,
                end,
              } of urlEmitTasks) {
                const referenceId = this.emitFile({
                  type: 'asset',
                  name: cssAssetName,
                  originalFileName,
                  source: content,
                })

                const filename = this.getFileName(referenceId)
                chunk.viteMetadata!.importedAssets.add(cleanUrl(filename))
                const replacement = toOutputFilePathInJS(
                  this.environment,
                  filename,
                  'asset',
                  chunk.fileName,
                  'js',
                  toRelativeRuntime,
                )
                const replacementString =
                  typeof replacement === 'string'
                    ? JSON.stringify(encodeURIPath(replacement)).slice(1, -1)
                    : `"+${replacement.runtime}+"`
                s.update(start, end, replacementString)
              }
            }

            if (chunkCSS !== undefined) {
              if (
                isPureCssChunk &&
                (opts.format === 'es' || opts.format === 'cjs')
              ) {
                // this is a shared CSS-only chunk that is empty.
                pureCssChunks.add(chunk)
              }

              if (this.environment.config.build.cssCodeSplit) {
                if (
                  (opts.format === 'es' || opts.format === 'cjs') &&
                  !chunk.fileName.includes('-legacy')
                ) {
                  const isEntry = chunk.isEntry && isPureCssChunk
                  const cssFullAssetName = ensureFileExt(chunk.name, '.css')
                  // if facadeModuleId doesn't exist or doesn't have a CSS extension,
                  // that means a JS entry file imports a CSS file.
                  // in this case, only use the filename for the CSS chunk name like JS chunks.
                  const cssAssetName =
                    chunk.isEntry &&
                    (!chunk.facadeModuleId ||
                      !isCSSRequest(chunk.facadeModuleId))
                      ? path.basename(cssFullAssetName)
                      : cssFullAssetName
                  const originalFileName = getChunkOriginalFileName(
                    chunk,
                    config.root,
                    this.environment.config.isOutputOptionsForLegacyChunks?.(
                      opts,
                    ) ?? false,
                  )

                  chunkCSS = resolveAssetUrlsInCss(
                    chunkCSS,
                    cssAssetName,
                    originalFileName,
                  )

                  // wait for previous tasks as well
                  chunkCSS = await codeSplitEmitQueue.run(async () => {
                    return finalizeCss(chunkCSS!, config)
                  })

                  // emit corresponding css file
                  const referenceId = this.emitFile({
                    type: 'asset',
                    name: cssAssetName,
                    originalFileName,
                    source: chunkCSS,
                  })
                  chunkCssReferences.set(chunk.fileName, referenceId)
                  if (isEntry) {
                    cssEntriesMap
                      .get(this.environment)!
                      .set(chunk.fileName, { referenceId, name: chunk.name })
                  }
                  chunk.viteMetadata!.importedCss.add(
                    this.getFileName(referenceId),
                  )
                } else if (this.environment.config.consumer === 'client') {
                  // legacy build and inline css

                  // Entry chunk CSS will be collected into `chunk.viteMetadata.importedCss`
                  // and injected later by the `'vite:build-html'` plugin into the `index.html`
                  // so it will be duplicated. (https://github.com/vitejs/vite/issues/2062#issuecomment-782388010)
                  // But because entry chunk can be imported by dynamic import,
                  // we shouldn't remove the inlined CSS. (#10285)

                  chunkCSS = await finalizeCss(chunkCSS, config)
                  let cssString = JSON.stringify(chunkCSS)
                  cssString =
                    renderAssetUrlInJS(
                      this,
                      chunk,
                      opts,
                      cssString,
                    )?.toString() || cssString
                  const style = `__vite_style__`
                  const injectCode =
                    `var ${style} = document.createElement('style');` +
                    `${style}.textContent = ${cssString};` +
                    `document.head.appendChild(${style});`

                  s ||= new MagicString(code)
                  injectInlinedCSS(s, this, code, opts.format, injectCode)
                }
              } else {
                // resolve public URL from CSS paths, we need to use absolute paths
                chunkCSS = resolveAssetUrlsInCss(
                  chunkCSS,
                  getCssBundleName(),
                  defaultCssBundleName,
                )
                // finalizeCss is called for the aggregated chunk in generateBundle

                chunkCSSMap.set(chunk.fileName, chunkCSS)
              }
            }

            if (s) {
              if (config.build.sourcemap) {
                return {
                  code: s.toString(),
                  map: s.generateMap({ hires: 'boundary' }),
                }
              } else {
                return { code: s.toString() }
              }
            }
            return null
          },

          augmentChunkHash(chunk) {
            if (chunk.viteMetadata?.importedCss.size) {
              let hash = ''
              for (const id of chunk.viteMetadata.importedCss) {
                hash += id
              }
              return hash
            }
          },
        }
      : {}),

    async generateBundle(opts, bundle) {
      // to avoid emitting duplicate assets for modern build and legacy build
      if (this.environment.config.isOutputOptionsForLegacyChunks?.(opts)) {
        return
      }

      // vite:asset cleans up earlier assets of 'renderChunk',
      // but with cssCodeSplit=false we may still emit CSS here.
      // So is our responsibility to respect emitAssets
      const canEmitAssets =
        config.command !== 'build' || this.environment.config.build.emitAssets

      // extract as single css bundle if no codesplit
      if (
        canEmitAssets &&
        !this.environment.config.build.cssCodeSplit &&
        !hasEmitted
      ) {
        let extractedCss = ''
        const collected = new Set<OutputChunk>()
        // will be populated in order they are used by entry points
        const dynamicImports = new Set<string>()

        function collect(chunk: OutputChunk | OutputAsset | undefined) {
          if (!chunk || chunk.type !== 'chunk' || collected.has(chunk)) return
          collected.add(chunk)

          // First collect all styles from the synchronous imports (lowest priority)
          chunk.imports.forEach((importName) => collect(bundle[importName]))
          // Save dynamic imports in deterministic order to add the styles later (to have the highest priority)
          chunk.dynamicImports.forEach((importName) =>
            dynamicImports.add(importName),
          )
          // Then collect the styles of the current chunk (might overwrite some styles from previous imports)
          extractedCss += chunkCSSMap.get(chunk.preliminaryFileName) ?? ''
        }

        // The bundle is guaranteed to be deterministic, if not then we have a bug in rollup.
        // So we use it to ensure a deterministic order of styles
        for (const chunk of Object.values(bundle)) {
          if (chunk.type === 'chunk' && chunk.isEntry) {
            collect(chunk)
          }
        }
        // Now collect the dynamic chunks, this is done last to have the styles overwrite the previous ones
        for (const chunkName of dynamicImports) {
          collect(bundle[chunkName])
        }

        // Finally, if there's any extracted CSS, we emit the asset
        if (extractedCss) {
          hasEmitted = true
          extractedCss = await finalizeCss(extractedCss, config)
          this.emitFile({
            name: getCssBundleName(),
            type: 'asset',
            source: extractedCss,
            // this file is an implicit entry point, use defaultCssBundleName as the original file name
            // this name is also used as a key in the manifest
            originalFileName: defaultCssBundleName,
          })
        }
      }

      // With `cssCodeSplit: false`, CSS is emitted as a single stylesheet in the HTML,
      // so this per-chunk import map handling is irrelevant.
      if (
        this.environment.config.build.chunkImportMap &&
        chunkCssReferences.size
      ) {
        // The import map hash identifies the JS chunk independently of its content.
        // Since each chunk has at most one extracted CSS sidecar, we can reuse that
        // stable identity with a `.css` extension while mapping it to the CSS content hash.
        const importMap = getImportMap(bundle, this.environment.config)!
        const importMapReverseMapping = Object.fromEntries(
          Object.entries(importMap.mapping).map(([k, v]) => [v, k]),
        )
        const chunksByPreliminaryFileName = new Map(
          Object.values(bundle)
            .filter((output): output is OutputChunk => output.type === 'chunk')
            .map((chunk) => [chunk.preliminaryFileName, chunk]),
        )

        for (const [chunkFileName, referenceId] of chunkCssReferences) {
          const chunk = chunksByPreliminaryFileName.get(chunkFileName)
          if (!chunk) continue

          const stableChunkFileName =
            importMapReverseMapping[chunk.fileName] ?? chunk.fileName
          const extension = path.posix.extname(stableChunkFileName)
          const stableCssFileName = `${stableChunkFileName.slice(
            0,
            extension ? -extension.length : undefined,
          )}.css`
          importMap.content.imports[config.base + stableCssFileName] =
            config.base + this.getFileName(referenceId)
        }
        importMap.asset.source = JSON.stringify(importMap.content)
      }

      // remove empty css chunks and their imports
      if (pureCssChunks.size) {
        // map each pure css chunk (rendered chunk) to it's corresponding bundle
        // chunk. we check that by `preliminaryFileName` as they have different
        // `filename`s (rendered chunk has the !~{XXX}~ placeholder)
        const prelimaryNameToChunkMap = Object.fromEntries(
          Object.values(bundle)
            .filter((chunk): chunk is OutputChunk => chunk.type === 'chunk')
            .map((chunk) => [chunk.preliminaryFileName, chunk.fileName]),
        )

        // When running in watch mode the generateBundle is called once per output format
        // in this case the `bundle` is not populated with the other output files
        // but they are still in `pureCssChunks`.
        // So we need to filter the names and only use those who are defined
        const pureCssChunkNames = [...pureCssChunks]
          .map((pureCssChunk) => prelimaryNameToChunkMap[pureCssChunk.fileName])
          .filter(Boolean)
        const pureCssChunkNameSet = new Set(pureCssChunkNames)

        let importMapReverseMapping: Record<string, string> | undefined
        if (this.environment.config.build.chunkImportMap) {
          const importMap = getImportMap(bundle, this.environment.config)!
          importMapReverseMapping = Object.fromEntries(
            Object.entries(importMap.mapping).map(([k, v]) => [v, k]),
          )
        }
        const pureCssChunkNamesInCode = importMapReverseMapping
          ? pureCssChunkNames.map(
              (name) => importMapReverseMapping![name] ?? name,
            )
          : pureCssChunkNames

        const replaceEmptyChunk = getEmptyChunkReplacer(
          pureCssChunkNamesInCode,
          opts.format,
        )

        for (const file in bundle) {
          const chunk = bundle[file]
          if (chunk.type === 'chunk') {
            let chunkImportsPureCssChunk = false
            // remove pure css chunk from other chunk's imports,
            // and also register the emitted CSS files under the importer
            // chunks instead.
            chunk.imports = chunk.imports.filter((file) => {
              if (pureCssChunkNameSet.has(file)) {
                const { importedCss, importedAssets } = (
                  bundle[file] as OutputChunk
                ).viteMetadata!
                importedCss.forEach((file) =>
                  chunk.viteMetadata!.importedCss.add(file),
                )
                importedAssets.forEach((file) =>
                  chunk.viteMetadata!.importedAssets.add(file),
                )
                chunkImportsPureCssChunk = true
                return false
              }
              return true
            })
            if (chunkImportsPureCssChunk) {
              chunk.code = replaceEmptyChunk(chunk.code)
            }
          }
        }

        const removedPureCssFiles = removedPureCssFilesCache.get(config)!
        pureCssChunkNames.forEach((fileName) => {
          const emptyJsPlaceholder = bundle[fileName] as OutputChunk
          if (emptyJsPlaceholder.isEntry) {
            const { importedAssets, importedCss } =
              emptyJsPlaceholder.viteMetadata!
            const cssReferenceId = cssEntriesMap
              .get(this.environment)!
              .get(emptyJsPlaceholder.preliminaryFileName)!.referenceId
            const realCssEntryName = this.getFileName(cssReferenceId)
            const realCssEntry = bundle[realCssEntryName]!
            importedCss.delete(realCssEntryName)
            if (importedAssets.size) {
              realCssEntry.viteMetadata!.importedAssets = importedAssets
            }
            if (importedCss.size) {
              realCssEntry.viteMetadata!.importedCss = importedCss
            }
          }

          removedPureCssFiles.set(fileName, emptyJsPlaceholder)
          delete bundle[fileName]
          delete bundle[`${fileName}.map`]
        })
      }

      const cssAssets = Object.values(bundle).filter(
        (asset): asset is OutputAsset =>
          asset.type === 'asset' && asset.fileName.endsWith('.css'),
      )
      for (const cssAsset of cssAssets) {
        if (typeof cssAsset.source === 'string') {
          cssAsset.source = cssAsset.source.replace(viteHashUpdateMarkerRE, '')
        }
      }
    },
  }
}

export function injectInlinedCSS(
  s: MagicString,
  ctx: Pick<MinimalPluginContext, 'error'>,
  code: string,
  format: InternalModuleFormat,
  injectCode: string,
): void {
  let injectionPoint: number
  if (format === 'iife' || format === 'umd') {
    const m = (format === 'iife' ? IIFE_BEGIN_RE : UMD_BEGIN_RE).exec(code)
    if (!m) {
      ctx.error('Injection point for inlined CSS not found')
    }
    injectionPoint = m.index + m[0].length
  } else if (format === 'es') {
    // legacy build
    if (code.startsWith('#!')) {
      const fileStartIndex = getFileStartIndex(code)
      const hashbang = code.slice(0, fileStartIndex)
      if (!lineTerminatorRE.test(hashbang)) {
        // the shebang has no trailing newline, add one so it stays intact
        s.append(`\n${injectCode}`)
        return
      }
      injectionPoint = fileStartIndex
    } else {
      injectionPoint = 0
    }
  } else {
    ctx.error('Non supported format')
  }
  s.appendRight(injectionPoint, injectCode)
}

export function cssAnalysisPlugin(config: ResolvedConfig): Plugin {
  return {
    name: 'vite:css-analysis',

    applyToEnvironment(environment) {
      return !environment.config.isBundled
    },

    transform: {
      filter: {
        id: {
          include: CSS_LANGS_RE,
          exclude: [commonjsProxyRE, SPECIAL_QUERY_RE],
        },
      },
      handler(_, id) {
        const { moduleGraph } = this.environment as DevEnvironment
        const thisModule = moduleGraph.getModuleById(id)

        // Handle CSS @import dependency HMR and other added modules via this.addWatchFile.
        // JS-related HMR is handled in the import-analysis plugin.
        if (thisModule) {
          // CSS modules cannot self-accept since it exports values
          const isSelfAccepting =
            !cssModulesCache.get(config)?.get(id) &&
            !inlineRE.test(id) &&
            !htmlProxyRE.test(id)
          // attached by pluginContainer.addWatchFile
          const pluginImports = (this as unknown as TransformPluginContext)
            ._addedImports
          if (pluginImports) {
            // record deps in the module graph so edits to @import css can trigger
            // main import to hot update
            const depModules = new Set<string | EnvironmentModuleNode>()
            for (const file of pluginImports) {
              depModules.add(moduleGraph.createFileOnlyEntry(file))
            }
            moduleGraph.updateModuleInfo(
              thisModule,
              depModules,
              null,
              // The root CSS proxy module is self-accepting and should not
              // have an explicit accept list
              new Set(),
              null,
              isSelfAccepting,
            )
          } else {
            thisModule.isSelfAccepting = isSelfAccepting
          }
        }
      },
    },
  }
}

function isCssScopeToRendered(
  cssScopeTo: Exclude<CustomPluginOptionsVite['cssScopeTo'], undefined>,
  renderedModules: Record<string, RenderedModule | undefined>,
) {
  const [importerId, exp] = cssScopeTo
  const importer = renderedModules[importerId]
  return (
    importer && (exp === undefined || importer.renderedExports.includes(exp))
  )
}

/**
 * Create a replacer function that takes code and replaces given pure CSS chunk imports
 * @param pureCssChunkNames The chunks that only contain pure CSS and should be replaced
 * @param outputFormat The module output format to decide whether to replace `import` or `require`
 */
export function getEmptyChunkReplacer(
  pureCssChunkNames: string[],
  outputFormat: InternalModuleFormat,
): (code: string) => string {
  const emptyChunkFiles = pureCssChunkNames
    .map((file) => escapeRegex(path.basename(file)))
    .join('|')

  // for cjs, require calls might be chained by minifier using the comma operator.
  // in this case we have to keep one comma if a next require is chained
  // or add a semicolon to terminate the chain.
  const emptyChunkRE = new RegExp(
    outputFormat === 'es'
      ? `\\bimport\\s*["'][^"']*(?:${emptyChunkFiles})["'];`
      : `(\\b|,\\s*)require\\(\\s*["'\`][^"'\`]*(?:${emptyChunkFiles})["'\`]\\)(;|,)`,
    'g',
  )

  return (code: string) =>
    code.replace(
      emptyChunkRE,
      // remove css import while preserving source map location
      (m, p1, p2) => {
        if (outputFormat === 'es') {
          return `/* empty css ${''.padEnd(m.length - 15)}*/`
        }
        if (p2 === ';') {
          // if it ends with `;`, move it before and remove the leading `,`
          return `${p2}/* empty css ${''.padEnd(m.length - 16)}*/`
        }
        // if it ends with `,`, remove it but keep the leading `,` if exists
        return `${p1}/* empty css ${''.padEnd(m.length - 15 - p1.length)}*/`
      },
    )
}

const fileURLWithWindowsDriveRE = /^file:\/\/\/[a-zA-Z]:\//

export interface CSSAtImportResolvers {
  css: ResolveIdFn
  sass: ResolveIdFn
  less: ResolveIdFn
}

export function createCSSResolvers(
  config: ResolvedConfig,
): CSSAtImportResolvers {
  let cssResolve: ResolveIdFn | undefined
  let sassResolve: ResolveIdFn | undefined
  let lessResolve: ResolveIdFn | undefined
  return {
    get css() {
      return (cssResolve ??= createBackCompatIdResolver(config, {
        extensions: ['.css'],
        mainFields: ['style'],
        conditions: ['style', DEV_PROD_CONDITION],
        tryIndex: false,
        preferRelative: true,
      }))
    },

    get sass() {
      if (!sassResolve) {
        const resolver = createBackCompatIdResolver(config, {
          extensions: ['.scss', '.sass', '.css'],
          mainFields: ['sass', 'style'],
          conditions: ['sass', 'style', DEV_PROD_CONDITION],
          tryIndex: true,
          tryPrefix: '_',
          preferRelative: true,
          skipMainField: true,
        })
        sassResolve = async (...args) => {
          // the modern API calls `canonicalize` with resolved file URLs
          // for relative URLs before raw specifiers
          if (args[1].startsWith('file://')) {
            args[1] = fileURLToPath(args[1], {
              windows:
                // file:///foo cannot be converted to path with windows mode
                isWindows && !fileURLWithWindowsDriveRE.test(args[1])
                  ? false
                  : undefined,
            })
          }
          return resolver(...args)
        }
      }
      return sassResolve
    },

    get less() {
      return (lessResolve ??= createBackCompatIdResolver(config, {
        extensions: ['.less', '.css'],
        mainFields: ['less', 'style'],
        conditions: ['less', 'style', DEV_PROD_CONDITION],
        tryIndex: false,
        preferRelative: true,
      }))
    },
  }
}

function getCssResolversKeys(
  resolvers: CSSAtImportResolvers,
): Array<keyof CSSAtImportResolvers> {
  return Object.keys(resolvers) as unknown as Array<keyof CSSAtImportResolvers>
}

async function compileCSSPreprocessors(
  environment: PartialEnvironment,
  id: string,
  lang: PreprocessLang,
  code: string,
  workerController: PreprocessorWorkerController,
): Promise<{
  code: string
  map?: ExistingRawSourceMap | { mappings: '' }
  deps?: Set<string>
}> {
  const { config } = environment
  const { preprocessorOptions, devSourcemap } = config.css
  const atImportResolvers = getAtImportResolvers(
    environment.getTopLevelConfig(),
  )
  const opts = {
    ...((preprocessorOptions && preprocessorOptions[lang]) || {}),
    // important: set this for relative import resolving
    filename: cleanUrl(id),
    enableSourcemap: devSourcemap ?? false,
  }

  const preProcessor = workerController[lang]
  const preprocessResult = await preProcessor(
    environment,
    code,
    config.root,
    opts,
    atImportResolvers,
  )
  if (preprocessResult.error) {
    throw preprocessResult.error
  }

  let deps: Set<string> | undefined
  if (preprocessResult.deps.length > 0) {
    const normalizedFilename = normalizePath(opts.filename)
    // sometimes sass registers the file itself as a dep
    deps = new Set(
      [...preprocessResult.deps].filter(
        (dep) => normalizePath(dep) !== normalizedFilename,
      ),
    )
  }

  return {
    code: preprocessResult.code,
    map: combineSourcemapsIfExists(
      opts.filename,
      preprocessResult.map,
      preprocessResult.additionalMap,
    ),
    deps,
  }
}

const configToAtImportResolvers = new WeakMap<
  ResolvedConfig,
  CSSAtImportResolvers
>()
function getAtImportResolvers(config: ResolvedConfig) {
  let atImportResolvers = configToAtImportResolvers.get(config)
  if (!atImportResolvers) {
    atImportResolvers = createCSSResolvers(config)
    configToAtImportResolvers.set(config, atImportResolvers)
  }
  return atImportResolvers
}

async function compileCSS(
  environment: PartialEnvironment,
  id: string,
  code: string,
  workerController: PreprocessorWorkerController,
  urlResolver?: CssUrlResolver,
): Promise<{
  code: string
  map?: SourceMapInput
  modules?: Record<string, string>
  deps?: Set<string>
}> {
  const { config } = environment
  const lang = CSS_LANGS_RE.exec(id)?.[1] as CssLang | undefined
  const deps = new Set<string>()

  // pre-processors: sass etc.
  let preprocessorMap: ExistingRawSourceMap | { mappings: '' } | undefined
  if (isPreProcessor(lang)) {
    const preprocessorResult = await compileCSSPreprocessors(
      environment,
      id,
      lang,
      code,
      workerController,
    )
    code = preprocessorResult.code
    preprocessorMap = preprocessorResult.map
    preprocessorResult.deps?.forEach((dep) => deps.add(dep))
  } else if (lang === 'sss' && config.css.transformer === 'lightningcss') {
    const sssResult = await transformSugarSS(environment, id, code)
    code = sssResult.code
    preprocessorMap = sssResult.map
  }

  const transformResult = await (config.css.transformer === 'lightningcss'
    ? compileLightningCSS(
        environment,
        id,
        code,
        deps,
        workerController,
        urlResolver,
      )
    : compilePostCSS(
        environment,
        id,
        code,
        deps,
        lang,
        workerController,
        urlResolver,
      ))

  if (!transformResult) {
    return {
      code,
      map: config.css.devSourcemap ? preprocessorMap : { mappings: '' },
      deps,
    }
  }

  return {
    ...transformResult,
    map: config.css.devSourcemap
      ? combineSourcemapsIfExists(
          cleanUrl(id),
          typeof transformResult.map === 'string'
            ? JSON.parse(transformResult.map)
            : transformResult.map,
          preprocessorMap,
        )
      : { mappings: '' },
    deps,
  }
}

async function compilePostCSS(
  environment: PartialEnvironment,
  id: string,
  code: string,
  deps: Set<string>,
  lang: CssLang | undefined,
  workerController: PreprocessorWorkerController,
  urlResolver?: CssUrlResolver,
): Promise<
  | {
      code: string
      map?: Exclude<SourceMapInput, string>
      modules?: Record<string, string>
    }
  | undefined
> {
  const { config } = environment
  const { modules: modulesOptions, devSourcemap } = config.css
  const isModule = modulesOptions !== false && cssModuleRE.test(id)
  // although at serve time it can work without processing, we do need to
  // crawl them in order to register watch dependencies.
  const needInlineImport = code.includes('@import')
  const hasUrl = cssUrlRE.test(code) || cssImageSetRE.test(code)
  const postcssConfig = await resolvePostcssConfig(
    environment.getTopLevelConfig(),
  )

  // postcss processing is not needed
  if (
    lang !== 'sss' &&
    !postcssConfig &&
    !isModule &&
    !needInlineImport &&
    !hasUrl
  ) {
    return
  }

  // postcss
  const atImportResolvers = getAtImportResolvers(
    environment.getTopLevelConfig(),
  )
  const postcssPlugins = postcssConfig?.plugins.slice() ?? []

  if (needInlineImport) {
    postcssPlugins.unshift(
      (await importPostcssImport()).default({
        async resolve(id, basedir, _importOptions, atRule) {
          const publicFile = checkPublicFile(
            id,
            environment.getTopLevelConfig(),
          )
          if (publicFile) {
            return publicFile
          }

          const resolved = await atImportResolvers.css(
            environment,
            id,
            // The `source` is only absent for an `@import` injected by another plugin
            // (a node with no source), in which case the resolver falls back to
            // the project root.
            atRule.source?.input.file,
          )

          if (resolved) {
            return path.resolve(resolved)
          }

          // postcss-import falls back to `resolve` dep if this is unresolved,
          // but we've shimmed to remove the `resolve` dep to cut on bundle size.
          // warn here to provide a better error message.
          if (!path.isAbsolute(id)) {
            environment.logger.error(
              colors.red(
                `Unable to resolve \`@import "${id}"\` from ${basedir}`,
              ),
            )
          }

          return id
        },
        async load(id) {
          const code = await fs.promises.readFile(id, 'utf-8')
          const lang = CSS_LANGS_RE.exec(id)?.[1] as CssLang | undefined
          if (isPreProcessor(lang)) {
            const result = await compileCSSPreprocessors(
              environment,
              id,
              lang,
              code,
              workerController,
            )
            result.deps?.forEach((dep) => deps.add(dep))
            // TODO: support source map
            return result.code
          }
          return code
        },
        nameLayer(index) {
          return `vite--anon-layer-${getHash(id)}-${index}`
        },
      }),
    )
  }

  if (
    urlResolver &&
    // when a postcss plugin is used (including the internal postcss plugins),
    // we need to add this plugin regardless of whether
    // this file contains url() or image-set(),
    // because we don't know the content injected by those plugins
    (postcssPlugins.length > 0 || isModule || hasUrl)
  ) {
    postcssPlugins.push(
      UrlRewritePostcssPlugin({
        resolver: urlResolver,
        deps,
        logger: environment.logger,
      }),
    )
  }

  let modules: Record<string, string> | undefined

  if (isModule) {
    postcssPlugins.unshift(
      (await importPostcssModules()).default({
        ...modulesOptions,
        localsConvention: modulesOptions?.localsConvention,
        getJSON(
          cssFileName: string,
          _modules: Record<string, string>,
          outputFileName: string,
        ) {
          modules = _modules
          if (modulesOptions && typeof modulesOptions.getJSON === 'function') {
            modulesOptions.getJSON(cssFileName, _modules, outputFileName)
          }
        },
        async resolve(id: string, importer: string) {
          for (const key of getCssResolversKeys(atImportResolvers)) {
            const resolved = await atImportResolvers[key](
              environment,
              id,
              importer,
            )
            if (resolved) {
              return path.resolve(resolved)
            }
          }

          return id
        },
      }),
    )
  }

  const postcssOptions = postcssConfig?.options ?? {}
  const postcssParser =
    lang === 'sss' ? await loadSss(config.root) : postcssOptions.parser

  if (!postcssPlugins.length && !postcssParser) {
    return
  }

  const result = await runPostCSS(
    id,
    code,
    postcssPlugins,
    { ...postcssOptions, parser: postcssParser },
    deps,
    environment.logger,
    devSourcemap,
  )
  return { ...result, modules }
}

async function transformSugarSS(
  environment: PartialEnvironment,
  id: string,
  code: string,
) {
  const { config } = environment
  const { devSourcemap } = config.css

  const sssParser = await loadSss(config.root)
  const result = await runPostCSS(
    id,
    code,
    [],
    { parser: sssParser },
    undefined,
    environment.logger,
    devSourcemap,
  )
  return result
}

async function runPostCSS(
  id: string,
  code: string,
  plugins: PostCSS.AcceptedPlugin[],
  options: PostCSS.ProcessOptions,
  deps: Set<string> | undefined,
  logger: Logger,
  enableSourcemap: boolean,
) {
  let postcssResult: PostCSS.Result
  try {
    const source = removeDirectQuery(id)
    const postcss = await importPostcss()

    // postcss is an unbundled dep and should be lazy imported
    postcssResult = await postcss.default(plugins).process(code, {
      ...options,
      to: source,
      from: source,
      ...(enableSourcemap
        ? {
