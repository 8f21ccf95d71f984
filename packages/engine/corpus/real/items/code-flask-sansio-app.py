     1	from __future__ import annotations
     2	
     3	import logging
     4	import os
     5	import sys
     6	import typing as t
     7	from datetime import timedelta
     8	from itertools import chain
     9	
    10	from werkzeug.exceptions import Aborter
    11	from werkzeug.exceptions import BadRequest
    12	from werkzeug.exceptions import BadRequestKeyError
    13	from werkzeug.routing import BuildError
    14	from werkzeug.routing import Map
    15	from werkzeug.routing import Rule
    16	from werkzeug.sansio.response import Response
    17	from werkzeug.utils import cached_property
    18	from werkzeug.utils import redirect as _wz_redirect
    19	
    20	from .. import typing as ft
    21	from ..config import Config
    22	from ..config import ConfigAttribute
    23	from ..ctx import _AppCtxGlobals
    24	from ..helpers import _split_blueprint_path
    25	from ..helpers import get_debug_flag
    26	from ..json.provider import DefaultJSONProvider
    27	from ..json.provider import JSONProvider
    28	from ..logging import create_logger
    29	from ..templating import DispatchingJinjaLoader
    30	from ..templating import Environment
    31	from .scaffold import _endpoint_from_view_func
    32	from .scaffold import find_package
    33	from .scaffold import Scaffold
    34	from .scaffold import setupmethod
    35	
    36	if t.TYPE_CHECKING:  # pragma: no cover
    37	    from werkzeug.wrappers import Response as BaseResponse
    38	
    39	    from ..testing import FlaskClient
    40	    from ..testing import FlaskCliRunner
    41	    from .blueprints import Blueprint
    42	
    43	T_shell_context_processor = t.TypeVar(
    44	    "T_shell_context_processor", bound=ft.ShellContextProcessorCallable
    45	)
    46	T_teardown = t.TypeVar("T_teardown", bound=ft.TeardownCallable)
    47	T_template_filter = t.TypeVar("T_template_filter", bound=ft.TemplateFilterCallable)
    48	T_template_global = t.TypeVar("T_template_global", bound=ft.TemplateGlobalCallable)
    49	T_template_test = t.TypeVar("T_template_test", bound=ft.TemplateTestCallable)
    50	
    51	
    52	def _make_timedelta(value: timedelta | int | None) -> timedelta | None:
    53	    if value is None or isinstance(value, timedelta):
    54	        return value
    55	
    56	    return timedelta(seconds=value)
    57	
    58	
    59	class App(Scaffold):
    60	    """The flask object implements a WSGI application and acts as the central
    61	    object.  It is passed the name of the module or package of the
    62	    application.  Once it is created it will act as a central registry for
    63	    the view functions, the URL rules, template configuration and much more.
    64	
    65	    The name of the package is used to resolve resources from inside the
    66	    package or the folder the module is contained in depending on if the
    67	    package parameter resolves to an actual python package (a folder with
    68	    an :file:`__init__.py` file inside) or a standard module (just a ``.py`` file).
    69	
    70	    For more information about resource loading, see :func:`open_resource`.
    71	
    72	    Usually you create a :class:`Flask` instance in your main module or
    73	    in the :file:`__init__.py` file of your package like this::
    74	
    75	        from flask import Flask
    76	        app = Flask(__name__)
    77	
    78	    .. admonition:: About the First Parameter
    79	
    80	        The idea of the first parameter is to give Flask an idea of what
    81	        belongs to your application.  This name is used to find resources
    82	        on the filesystem, can be used by extensions to improve debugging
    83	        information and a lot more.
    84	
    85	        So it's important what you provide there.  If you are using a single
    86	        module, `__name__` is always the correct value.  If you however are
    87	        using a package, it's usually recommended to hardcode the name of
    88	        your package there.
    89	
    90	        For example if your application is defined in :file:`yourapplication/app.py`
    91	        you should create it with one of the two versions below::
    92	
    93	            app = Flask('yourapplication')
    94	            app = Flask(__name__.split('.')[0])
    95	
    96	        Why is that?  The application will work even with `__name__`, thanks
    97	        to how resources are looked up.  However it will make debugging more
    98	        painful.  Certain extensions can make assumptions based on the
    99	        import name of your application.  For example the Flask-SQLAlchemy
   100	        extension will look for the code in your application that triggered
   101	        an SQL query in debug mode.  If the import name is not properly set
   102	        up, that debugging information is lost.  (For example it would only
   103	        pick up SQL queries in `yourapplication.app` and not
   104	        `yourapplication.views.frontend`)
   105	
   106	    .. versionadded:: 0.7
   107	       The `static_url_path`, `static_folder`, and `template_folder`
   108	       parameters were added.
   109	
   110	    .. versionadded:: 0.8
   111	       The `instance_path` and `instance_relative_config` parameters were
   112	       added.
   113	
   114	    .. versionadded:: 0.11
   115	       The `root_path` parameter was added.
   116	
   117	    .. versionadded:: 1.0
   118	       The ``host_matching`` and ``static_host`` parameters were added.
   119	
   120	    .. versionadded:: 1.0
   121	       The ``subdomain_matching`` parameter was added. Subdomain
   122	       matching needs to be enabled manually now. Setting
   123	       :data:`SERVER_NAME` does not implicitly enable it.
   124	
   125	    :param import_name: the name of the application package
   126	    :param static_url_path: can be used to specify a different path for the
   127	                            static files on the web.  Defaults to the name
   128	                            of the `static_folder` folder.
   129	    :param static_folder: The folder with static files that is served at
   130	        ``static_url_path``. Relative to the application ``root_path``
   131	        or an absolute path. Defaults to ``'static'``.
   132	    :param static_host: the host to use when adding the static route.
   133	        Defaults to None. Required when using ``host_matching=True``
   134	        with a ``static_folder`` configured.
   135	    :param host_matching: set ``url_map.host_matching`` attribute.
   136	        Defaults to False.
   137	    :param subdomain_matching: consider the subdomain relative to
   138	        :data:`SERVER_NAME` when matching routes. Defaults to False.
   139	    :param template_folder: the folder that contains the templates that should
   140	                            be used by the application.  Defaults to
   141	                            ``'templates'`` folder in the root path of the
   142	                            application.
   143	    :param instance_path: An alternative instance path for the application.
   144	                          By default the folder ``'instance'`` next to the
   145	                          package or module is assumed to be the instance
   146	                          path.
   147	    :param instance_relative_config: if set to ``True`` relative filenames
   148	                                     for loading the config are assumed to
   149	                                     be relative to the instance path instead
   150	                                     of the application root.
   151	    :param root_path: The path to the root of the application files.
   152	        This should only be set manually when it can't be detected
   153	        automatically, such as for namespace packages.
   154	    """
   155	
   156	    #: The class of the object assigned to :attr:`aborter`, created by
   157	    #: :meth:`create_aborter`. That object is called by
   158	    #: :func:`flask.abort` to raise HTTP errors, and can be
   159	    #: called directly as well.
   160	    #:
   161	    #: Defaults to :class:`werkzeug.exceptions.Aborter`.
   162	    #:
   163	    #: .. versionadded:: 2.2
   164	    aborter_class = Aborter
   165	
   166	    #: The class that is used for the Jinja environment.
   167	    #:
   168	    #: .. versionadded:: 0.11
   169	    jinja_environment = Environment
   170	
   171	    #: The class that is used for the :data:`~flask.g` instance.
   172	    #:
   173	    #: Example use cases for a custom class:
   174	    #:
   175	    #: 1. Store arbitrary attributes on flask.g.
   176	    #: 2. Add a property for lazy per-request database connectors.
   177	    #: 3. Return None instead of AttributeError on unexpected attributes.
   178	    #: 4. Raise exception if an unexpected attr is set, a "controlled" flask.g.
   179	    #:
   180	    #: .. versionadded:: 0.10
   181	    #:     Renamed from ``request_globals_class`.
   182	    app_ctx_globals_class = _AppCtxGlobals
   183	
   184	    #: The class that is used for the ``config`` attribute of this app.
   185	    #: Defaults to :class:`~flask.Config`.
   186	    #:
   187	    #: Example use cases for a custom class:
   188	    #:
   189	    #: 1. Default values for certain config options.
   190	    #: 2. Access to config values through attributes in addition to keys.
   191	    #:
   192	    #: .. versionadded:: 0.11
   193	    config_class = Config
   194	
   195	    #: The testing flag.  Set this to ``True`` to enable the test mode of
   196	    #: Flask extensions (and in the future probably also Flask itself).
   197	    #: For example this might activate test helpers that have an
   198	    #: additional runtime cost which should not be enabled by default.
   199	    #:
   200	    #: If this is enabled and PROPAGATE_EXCEPTIONS is not changed from the
   201	    #: default it's implicitly enabled.
   202	    #:
   203	    #: This attribute can also be configured from the config with the
   204	    #: ``TESTING`` configuration key.  Defaults to ``False``.
   205	    testing = ConfigAttribute[bool]("TESTING")
   206	
   207	    #: If a secret key is set, cryptographic components can use this to
   208	    #: sign cookies and other things. Set this to a complex random value
   209	    #: when you want to use the secure cookie for instance.
   210	    #:
   211	    #: This attribute can also be configured from the config with the
   212	    #: :data:`SECRET_KEY` configuration key. Defaults to ``None``.
   213	    secret_key = ConfigAttribute[str | bytes | None]("SECRET_KEY")
   214	
   215	    #: A :class:`~datetime.timedelta` which is used to set the expiration
   216	    #: date of a permanent session.  The default is 31 days which makes a
   217	    #: permanent session survive for roughly one month.
   218	    #:
   219	    #: This attribute can also be configured from the config with the
   220	    #: ``PERMANENT_SESSION_LIFETIME`` configuration key.  Defaults to
   221	    #: ``timedelta(days=31)``
   222	    permanent_session_lifetime = ConfigAttribute[timedelta](
   223	        "PERMANENT_SESSION_LIFETIME",
   224	        get_converter=_make_timedelta,  # type: ignore[arg-type]
   225	    )
   226	
   227	    json_provider_class: type[JSONProvider] = DefaultJSONProvider
   228	    """A subclass of :class:`~flask.json.provider.JSONProvider`. An
   229	    instance is created and assigned to :attr:`app.json` when creating
   230	    the app.
   231	
   232	    The default, :class:`~flask.json.provider.DefaultJSONProvider`, uses
   233	    Python's built-in :mod:`json` library. A different provider can use
   234	    a different JSON library.
   235	
   236	    .. versionadded:: 2.2
   237	    """
   238	
   239	    #: Options that are passed to the Jinja environment in
   240	    #: :meth:`create_jinja_environment`. Changing these options after
   241	    #: the environment is created (accessing :attr:`jinja_env`) will
   242	    #: have no effect.
   243	    #:
   244	    #: .. versionchanged:: 1.1.0
   245	    #:     This is a ``dict`` instead of an ``ImmutableDict`` to allow
   246	    #:     easier configuration.
   247	    #:
   248	    jinja_options: dict[str, t.Any] = {}
   249	
   250	    #: The rule object to use for URL rules created.  This is used by
   251	    #: :meth:`add_url_rule`.  Defaults to :class:`werkzeug.routing.Rule`.
   252	    #:
   253	    #: .. versionadded:: 0.7
   254	    url_rule_class = Rule
   255	
   256	    #: The map object to use for storing the URL rules and routing
   257	    #: configuration parameters. Defaults to :class:`werkzeug.routing.Map`.
   258	    #:
   259	    #: .. versionadded:: 1.1.0
   260	    url_map_class = Map
   261	
   262	    #: The :meth:`test_client` method creates an instance of this test
   263	    #: client class. Defaults to :class:`~flask.testing.FlaskClient`.
   264	    #:
   265	    #: .. versionadded:: 0.7
   266	    test_client_class: type[FlaskClient] | None = None
   267	
   268	    #: The :class:`~click.testing.CliRunner` subclass, by default
   269	    #: :class:`~flask.testing.FlaskCliRunner` that is used by
   270	    #: :meth:`test_cli_runner`. Its ``__init__`` method should take a
   271	    #: Flask app object as the first argument.
   272	    #:
   273	    #: .. versionadded:: 1.0
   274	    test_cli_runner_class: type[FlaskCliRunner] | None = None
   275	
   276	    default_config: dict[str, t.Any]
   277	    response_class: type[Response]
   278	
   279	    def __init__(
   280	        self,
   281	        import_name: str,
   282	        static_url_path: str | None = None,
   283	        static_folder: str | os.PathLike[str] | None = "static",
   284	        static_host: str | None = None,
   285	        host_matching: bool = False,
   286	        subdomain_matching: bool = False,
   287	        template_folder: str | os.PathLike[str] | None = "templates",
   288	        instance_path: str | None = None,
   289	        instance_relative_config: bool = False,
   290	        root_path: str | None = None,
   291	    ) -> None:
   292	        super().__init__(
   293	            import_name=import_name,
   294	            static_folder=static_folder,
   295	            static_url_path=static_url_path,
   296	            template_folder=template_folder,
   297	            root_path=root_path,
   298	        )
   299	
   300	        if instance_path is None:
   301	            instance_path = self.auto_find_instance_path()
   302	        elif not os.path.isabs(instance_path):
   303	            raise ValueError(
   304	                "If an instance path is provided it must be absolute."
   305	                " A relative path was given instead."
   306	            )
   307	
   308	        #: Holds the path to the instance folder.
   309	        #:
   310	        #: .. versionadded:: 0.8
   311	        self.instance_path = instance_path
   312	
   313	        #: The configuration dictionary as :class:`Config`.  This behaves
   314	        #: exactly like a regular dictionary but supports additional methods
   315	        #: to load a config from files.
   316	        self.config = self.make_config(instance_relative_config)
   317	
   318	        #: An instance of :attr:`aborter_class` created by
   319	        #: :meth:`make_aborter`. This is called by :func:`flask.abort`
   320	        #: to raise HTTP errors, and can be called directly as well.
   321	        #:
   322	        #: .. versionadded:: 2.2
   323	        #:     Moved from ``flask.abort``, which calls this object.
   324	        self.aborter = self.make_aborter()
   325	
   326	        self.json: JSONProvider = self.json_provider_class(self)
   327	        """Provides access to JSON methods. Functions in ``flask.json``
   328	        will call methods on this provider when the application context
   329	        is active. Used for handling JSON requests and responses.
   330	
   331	        An instance of :attr:`json_provider_class`. Can be customized by
   332	        changing that attribute on a subclass, or by assigning to this
   333	        attribute afterwards.
   334	
   335	        The default, :class:`~flask.json.provider.DefaultJSONProvider`,
   336	        uses Python's built-in :mod:`json` library. A different provider
   337	        can use a different JSON library.
   338	
   339	        .. versionadded:: 2.2
   340	        """
   341	
   342	        #: A list of functions that are called by
   343	        #: :meth:`handle_url_build_error` when :meth:`.url_for` raises a
   344	        #: :exc:`~werkzeug.routing.BuildError`. Each function is called
   345	        #: with ``error``, ``endpoint`` and ``values``. If a function
   346	        #: returns ``None`` or raises a ``BuildError``, it is skipped.
   347	        #: Otherwise, its return value is returned by ``url_for``.
   348	        #:
   349	        #: .. versionadded:: 0.9
   350	        self.url_build_error_handlers: list[
   351	            t.Callable[[Exception, str, dict[str, t.Any]], str]
   352	        ] = []
   353	
   354	        #: A list of functions that are called when the application context
   355	        #: is destroyed.  Since the application context is also torn down
   356	        #: if the request ends this is the place to store code that disconnects
   357	        #: from databases.
   358	        #:
   359	        #: .. versionadded:: 0.9
   360	        self.teardown_appcontext_funcs: list[ft.TeardownCallable] = []
   361	
   362	        #: A list of shell context processor functions that should be run
   363	        #: when a shell context is created.
   364	        #:
   365	        #: .. versionadded:: 0.11
   366	        self.shell_context_processors: list[ft.ShellContextProcessorCallable] = []
   367	
   368	        #: Maps registered blueprint names to blueprint objects. The
   369	        #: dict retains the order the blueprints were registered in.
   370	        #: Blueprints can be registered multiple times, this dict does
   371	        #: not track how often they were attached.
   372	        #:
   373	        #: .. versionadded:: 0.7
   374	        self.blueprints: dict[str, Blueprint] = {}
   375	
   376	        #: a place where extensions can store application specific state.  For
   377	        #: example this is where an extension could store database engines and
   378	        #: similar things.
   379	        #:
   380	        #: The key must match the name of the extension module. For example in
   381	        #: case of a "Flask-Foo" extension in `flask_foo`, the key would be
   382	        #: ``'foo'``.
   383	        #:
   384	        #: .. versionadded:: 0.7
   385	        self.extensions: dict[str, t.Any] = {}
   386	
   387	        #: The :class:`~werkzeug.routing.Map` for this instance.  You can use
   388	        #: this to change the routing converters after the class was created
   389	        #: but before any routes are connected.  Example::
   390	        #:
   391	        #:    from werkzeug.routing import BaseConverter
   392	        #:
   393	        #:    class ListConverter(BaseConverter):
   394	        #:        def to_python(self, value):
   395	        #:            return value.split(',')
   396	        #:        def to_url(self, values):
   397	        #:            return ','.join(super(ListConverter, self).to_url(value)
   398	        #:                            for value in values)
   399	        #:
   400	        #:    app = Flask(__name__)
   401	        #:    app.url_map.converters['list'] = ListConverter
   402	        self.url_map = self.url_map_class(host_matching=host_matching)
   403	
   404	        self.subdomain_matching = subdomain_matching
   405	
   406	        # tracks internally if the application already handled at least one
   407	        # request.
   408	        self._got_first_request = False
   409	
   410	    def _check_setup_finished(self, f_name: str) -> None:
   411	        if self._got_first_request:
   412	            raise AssertionError(
   413	                f"The setup method '{f_name}' can no longer be called"
   414	                " on the application. It has already handled its first"
   415	                " request, any changes will not be applied"
   416	                " consistently.\n"
   417	                "Make sure all imports, decorators, functions, etc."
   418	                " needed to set up the application are done before"
   419	                " running it."
   420	            )
   421	
   422	    @cached_property
   423	    def name(self) -> str:
   424	        """The name of the application.  This is usually the import name
   425	        with the difference that it's guessed from the run file if the
   426	        import name is main.  This name is used as a display name when
   427	        Flask needs the name of the application.  It can be set and overridden
   428	        to change the value.
   429	
   430	        .. versionadded:: 0.8
   431	        """
   432	        if self.import_name == "__main__":
   433	            fn: str | None = getattr(sys.modules["__main__"], "__file__", None)
   434	            if fn is None:
   435	                return "__main__"
   436	            return os.path.splitext(os.path.basename(fn))[0]
   437	        return self.import_name
   438	
   439	    @cached_property
   440	    def logger(self) -> logging.Logger:
   441	        """A standard Python :class:`~logging.Logger` for the app, with
   442	        the same name as :attr:`name`.
   443	
   444	        In debug mode, the logger's :attr:`~logging.Logger.level` will
   445	        be set to :data:`~logging.DEBUG`.
   446	
   447	        If there are no handlers configured, a default handler will be
   448	        added. See :doc:`/logging` for more information.
   449	
   450	        .. versionchanged:: 1.1.0
   451	            The logger takes the same name as :attr:`name` rather than
   452	            hard-coding ``"flask.app"``.
   453	
   454	        .. versionchanged:: 1.0.0
   455	            Behavior was simplified. The logger is always named
   456	            ``"flask.app"``. The level is only set during configuration,
   457	            it doesn't check ``app.debug`` each time. Only one format is
   458	            used, not different ones depending on ``app.debug``. No
   459	            handlers are removed, and a handler is only added if no
   460	            handlers are already configured.
   461	
   462	        .. versionadded:: 0.3
   463	        """
   464	        return create_logger(self)
   465	
   466	    @cached_property
   467	    def jinja_env(self) -> Environment:
   468	        """The Jinja environment used to load templates.
   469	
   470	        The environment is created the first time this property is
   471	        accessed. Changing :attr:`jinja_options` after that will have no
   472	        effect.
   473	        """
   474	        return self.create_jinja_environment()
   475	
   476	    def create_jinja_environment(self) -> Environment:
   477	        raise NotImplementedError()
   478	
   479	    def make_config(self, instance_relative: bool = False) -> Config:
   480	        """Used to create the config attribute by the Flask constructor.
   481	        The `instance_relative` parameter is passed in from the constructor
   482	        of Flask (there named `instance_relative_config`) and indicates if
   483	        the config should be relative to the instance path or the root path
   484	        of the application.
   485	
   486	        .. versionadded:: 0.8
   487	        """
   488	        root_path = self.root_path
   489	        if instance_relative:
   490	            root_path = self.instance_path
   491	        defaults = dict(self.default_config)
   492	        defaults["DEBUG"] = get_debug_flag()
   493	        return self.config_class(root_path, defaults)
   494	
   495	    def make_aborter(self) -> Aborter:
   496	        """Create the object to assign to :attr:`aborter`. That object
   497	        is called by :func:`flask.abort` to raise HTTP errors, and can
   498	        be called directly as well.
   499	
   500	        By default, this creates an instance of :attr:`aborter_class`,
   501	        which defaults to :class:`werkzeug.exceptions.Aborter`.
   502	
   503	        .. versionadded:: 2.2
   504	        """
   505	        return self.aborter_class()
   506	
   507	    def auto_find_instance_path(self) -> str:
   508	        """Tries to locate the instance path if it was not provided to the
   509	        constructor of the application class.  It will basically calculate
   510	        the path to a folder named ``instance`` next to your main file or
   511	        the package.
   512	
   513	        .. versionadded:: 0.8
   514	        """
   515	        prefix, package_path = find_package(self.import_name)
   516	        if prefix is None:
   517	            return os.path.join(package_path, "instance")
   518	        return os.path.join(prefix, "var", f"{self.name}-instance")
   519	
   520	    def create_global_jinja_loader(self) -> DispatchingJinjaLoader:
   521	        """Creates the loader for the Jinja environment.  Can be used to
   522	        override just the loader and keeping the rest unchanged.  It's
   523	        discouraged to override this function.  Instead one should override
   524	        the :meth:`jinja_loader` function instead.
   525	
   526	        The global loader dispatches between the loaders of the application
   527	        and the individual blueprints.
   528	
   529	        .. versionadded:: 0.7
   530	        """
   531	        return DispatchingJinjaLoader(self)
   532	
   533	    def select_jinja_autoescape(self, filename: str | None) -> bool:
   534	        """Returns ``True`` if autoescaping should be active for the given
   535	        template name. If no template name is given, returns `True`.
   536	
   537	        .. versionchanged:: 2.2
   538	            Autoescaping is now enabled by default for ``.svg`` files.
   539	
   540	        .. versionadded:: 0.5
   541	        """
   542	        if filename is None:
   543	            return True
   544	        return filename.endswith((".html", ".htm", ".xml", ".xhtml", ".svg"))
   545	
   546	    @property
   547	    def debug(self) -> bool:
   548	        """Whether debug mode is enabled. When using ``flask run`` to start the
   549	        development server, an interactive debugger will be shown for unhandled
   550	        exceptions, and the server will be reloaded when code changes. This maps to the
   551	        :data:`DEBUG` config key. It may not behave as expected if set late.
   552	
   553	        **Do not enable debug mode when deploying in production.**
   554	
   555	        Default: ``False``
   556	        """
   557	        return self.config["DEBUG"]  # type: ignore[no-any-return]
   558	
   559	    @debug.setter
   560	    def debug(self, value: bool) -> None:
   561	        self.config["DEBUG"] = value
   562	
   563	        if self.config["TEMPLATES_AUTO_RELOAD"] is None:
   564	            self.jinja_env.auto_reload = value
   565	
   566	    @setupmethod
   567	    def register_blueprint(self, blueprint: Blueprint, **options: t.Any) -> None:
   568	        """Register a :class:`~flask.Blueprint` on the application. Keyword
   569	        arguments passed to this method will override the defaults set on the
   570	        blueprint.
   571	
   572	        Calls the blueprint's :meth:`~flask.Blueprint.register` method after
   573	        recording the blueprint in the application's :attr:`blueprints`.
   574	
   575	        :param blueprint: The blueprint to register.
   576	        :param url_prefix: Blueprint routes will be prefixed with this.
   577	        :param subdomain: Blueprint routes will match on this subdomain.
   578	        :param url_defaults: Blueprint routes will use these default values for
   579	            view arguments.
   580	        :param options: Additional keyword arguments are passed to
   581	            :class:`~flask.blueprints.BlueprintSetupState`. They can be
   582	            accessed in :meth:`~flask.Blueprint.record` callbacks.
   583	
   584	        .. versionchanged:: 2.0.1
   585	            The ``name`` option can be used to change the (pre-dotted)
   586	            name the blueprint is registered with. This allows the same
   587	            blueprint to be registered multiple times with unique names
   588	            for ``url_for``.
   589	
   590	        .. versionadded:: 0.7
   591	        """
   592	        blueprint.register(self, options)
   593	
   594	    def iter_blueprints(self) -> t.ValuesView[Blueprint]:
   595	        """Iterates over all blueprints by the order they were registered.
   596	
   597	        .. versionadded:: 0.11
   598	        """
   599	        return self.blueprints.values()
   600	
   601	    @setupmethod
   602	    def add_url_rule(
   603	        self,
   604	        rule: str,
   605	        endpoint: str | None = None,
   606	        view_func: ft.RouteCallable | None = None,
   607	        provide_automatic_options: bool | None = None,
   608	        **options: t.Any,
   609	    ) -> None:
   610	        if endpoint is None:
   611	            endpoint = _endpoint_from_view_func(view_func)  # type: ignore
   612	        options["endpoint"] = endpoint
   613	        methods = options.pop("methods", None)
   614	
   615	        # if the methods are not given and the view_func object knows its
   616	        # methods we can use that instead.  If neither exists, we go with
   617	        # a tuple of only ``GET`` as default.
   618	        if methods is None:
   619	            methods = getattr(view_func, "methods", None) or ("GET",)
   620	        if isinstance(methods, str):
   621	            raise TypeError(
   622	                "Allowed methods must be a list of strings, for"
   623	                ' example: @app.route(..., methods=["POST"])'
   624	            )
   625	        methods = {item.upper() for item in methods}
   626	
   627	        # Methods that should always be added
   628	        required_methods: set[str] = set(getattr(view_func, "required_methods", ()))
   629	
   630	        if provide_automatic_options is None:
   631	            provide_automatic_options = getattr(
   632	                view_func, "provide_automatic_options", None
   633	            )
   634	
   635	            if provide_automatic_options is None:
   636	                provide_automatic_options = (
   637	                    "OPTIONS" not in methods
   638	                    and self.config["PROVIDE_AUTOMATIC_OPTIONS"]
   639	                )
   640	
   641	        if provide_automatic_options:
   642	            required_methods.add("OPTIONS")
   643	
   644	        # Add the required methods now.
   645	        methods |= required_methods
   646	
   647	        rule_obj = self.url_rule_class(rule, methods=methods, **options)
   648	        rule_obj.provide_automatic_options = provide_automatic_options  # type: ignore[attr-defined]
   649	
   650	        self.url_map.add(rule_obj)
   651	        if view_func is not None:
   652	            old_func = self.view_functions.get(endpoint)
   653	            if old_func is not None and old_func != view_func:
   654	                raise AssertionError(
   655	                    "View function mapping is overwriting an existing"
   656	                    f" endpoint function: {endpoint}"
   657	                )
   658	            self.view_functions[endpoint] = view_func
   659	
   660	    @t.overload
   661	    def template_filter(self, name: T_template_filter) -> T_template_filter: ...
   662	    @t.overload
   663	    def template_filter(
   664	        self, name: str | None = None
   665	    ) -> t.Callable[[T_template_filter], T_template_filter]: ...
   666	    @setupmethod
   667	    def template_filter(
   668	        self, name: T_template_filter | str | None = None
   669	    ) -> T_template_filter | t.Callable[[T_template_filter], T_template_filter]:
   670	        """Decorate a function to register it as a custom Jinja filter. The name
   671	        is optional. The decorator may be used without parentheses.
   672	
   673	        .. code-block:: python
   674	
   675	            @app.template_filter("reverse")
   676	            def reverse_filter(s):
   677	                return reversed(s)
   678	
   679	        The :meth:`add_template_filter` method may be used to register a
   680	        function later rather than decorating.
   681	
   682	        :param name: The name to register the filter as. If not given, uses the
   683	            function's name.
   684	        """
   685	        if callable(name):
   686	            self.add_template_filter(name)
   687	            return name
   688	
   689	        def decorator(f: T_template_filter) -> T_template_filter:
   690	            self.add_template_filter(f, name=name)
   691	            return f
   692	
   693	        return decorator
   694	
   695	    @setupmethod
   696	    def add_template_filter(
   697	        self, f: ft.TemplateFilterCallable, name: str | None = None
   698	    ) -> None:
   699	        """Register a function to use as a custom Jinja filter.
   700	
   701	        The :meth:`template_filter` decorator can be used to register a function
   702	        by decorating instead.
   703	
   704	        :param f: The function to register.
   705	        :param name: The name to register the filter as. If not given, uses the
   706	            function's name.
   707	        """
   708	        self.jinja_env.filters[name or f.__name__] = f
   709	
   710	    @t.overload
   711	    def template_test(self, name: T_template_test) -> T_template_test: ...
   712	    @t.overload
   713	    def template_test(
   714	        self, name: str | None = None
   715	    ) -> t.Callable[[T_template_test], T_template_test]: ...
   716	    @setupmethod
   717	    def template_test(
   718	        self, name: T_template_test | str | None = None
   719	    ) -> T_template_test | t.Callable[[T_template_test], T_template_test]:
   720	        """Decorate a function to register it as a custom Jinja test. The name
   721	        is optional. The decorator may be used without parentheses.
   722	
   723	        .. code-block:: python
   724	
   725	            @app.template_test("prime")
   726	            def is_prime_test(n):
   727	                if n == 2:
   728	                    return True
   729	                for i in range(2, int(math.ceil(math.sqrt(n))) + 1):
   730	                    if n % i == 0:
   731	                        return False
   732	              return True
   733	
   734	        The :meth:`add_template_test` method may be used to register a function
   735	        later rather than decorating.
   736	
   737	        :param name: The name to register the filter as. If not given, uses the
   738	            function's name.
   739	
   740	        .. versionadded:: 0.10
   741	        """
   742	        if callable(name):
   743	            self.add_template_test(name)
   744	            return name
   745	
   746	        def decorator(f: T_template_test) -> T_template_test:
   747	            self.add_template_test(f, name=name)
   748	            return f
   749	
   750	        return decorator
   751	
   752	    @setupmethod
   753	    def add_template_test(
   754	        self, f: ft.TemplateTestCallable, name: str | None = None
   755	    ) -> None:
   756	        """Register a function to use as a custom Jinja test.
   757	
   758	        The :meth:`template_test` decorator can be used to register a function
   759	        by decorating instead.
   760	
   761	        :param f: The function to register.
   762	        :param name: The name to register the test as. If not given, uses the
   763	            function's name.
   764	
   765	        .. versionadded:: 0.10
   766	        """
   767	        self.jinja_env.tests[name or f.__name__] = f
   768	
   769	    @t.overload
   770	    def template_global(self, name: T_template_global) -> T_template_global: ...
   771	    @t.overload
   772	    def template_global(
   773	        self, name: str | None = None
   774	    ) -> t.Callable[[T_template_global], T_template_global]: ...
   775	    @setupmethod
   776	    def template_global(
   777	        self, name: T_template_global | str | None = None
   778	    ) -> T_template_global | t.Callable[[T_template_global], T_template_global]:
   779	        """Decorate a function to register it as a custom Jinja global. The name
   780	        is optional. The decorator may be used without parentheses.
   781	
   782	        .. code-block:: python
   783	
   784	            @app.template_global
   785	            def double(n):
   786	                return 2 * n
   787	
   788	        The :meth:`add_template_global` method may be used to register a
   789	        function later rather than decorating.
   790	
   791	        :param name: The name to register the global as. If not given, uses the
   792	            function's name.
   793	
   794	        .. versionadded:: 0.10
   795	        """
   796	        if callable(name):
   797	            self.add_template_global(name)
   798	            return name
   799	
   800	        def decorator(f: T_template_global) -> T_template_global:
   801	            self.add_template_global(f, name=name)
   802	            return f
   803	
   804	        return decorator
   805	
   806	    @setupmethod
   807	    def add_template_global(
   808	        self, f: ft.TemplateGlobalCallable, name: str | None = None
   809	    ) -> None:
   810	        """Register a function to use as a custom Jinja global.
   811	
   812	        The :meth:`template_global` decorator can be used to register a function
   813	        by decorating instead.
   814	
   815	        :param f: The function to register.
   816	        :param name: The name to register the global as. If not given, uses the
   817	            function's name.
   818	
   819	        .. versionadded:: 0.10
   820	        """
   821	        self.jinja_env.globals[name or f.__name__] = f
   822	
   823	    @setupmethod
   824	    def teardown_appcontext(self, f: T_teardown) -> T_teardown:
   825	        """Registers a function to be called when the app context is popped. The
   826	        context is popped at the end of a request, CLI command, or manual ``with``
   827	        block.
   828	
   829	        .. code-block:: python
   830	
   831	            with app.app_context():
   832	                ...
   833	
   834	        When the ``with`` block exits (or ``ctx.pop()`` is called), the
   835	        teardown functions are called just before the app context is
   836	        made inactive.
   837	
   838	        When a teardown function was called because of an unhandled
   839	        exception it will be passed an error object. If an
   840	        :meth:`errorhandler` is registered, it will handle the exception
   841	        and the teardown will not receive it.
   842	
   843	        Teardown functions must avoid raising exceptions. If they
   844	        execute code that might fail they must surround that code with a
   845	        ``try``/``except`` block and log any errors.
   846	
   847	        The return values of teardown functions are ignored.
   848	
   849	        .. versionadded:: 0.9
   850	        """
   851	        self.teardown_appcontext_funcs.append(f)
   852	        return f
   853	
   854	    @setupmethod
   855	    def shell_context_processor(
   856	        self, f: T_shell_context_processor
   857	    ) -> T_shell_context_processor:
   858	        """Registers a shell context processor function.
   859	
   860	        .. versionadded:: 0.11
   861	        """
   862	        self.shell_context_processors.append(f)
   863	        return f
   864	
   865	    def _find_error_handler(
   866	        self, e: Exception, blueprints: list[str]
   867	    ) -> ft.ErrorHandlerCallable | None:
   868	        """Return a registered error handler for an exception in this order:
   869	        blueprint handler for a specific code, app handler for a specific code,
   870	        blueprint handler for an exception class, app handler for an exception
   871	        class, or ``None`` if a suitable handler is not found.
   872	        """
   873	        exc_class, code = self._get_exc_class_and_code(type(e))
   874	        names = (*blueprints, None)
   875	
   876	        for c in (code, None) if code is not None else (None,):
   877	            for name in names:
   878	                handler_map = self.error_handler_spec[name][c]
   879	
   880	                if not handler_map:
   881	                    continue
   882	
   883	                for cls in exc_class.__mro__:
   884	                    handler = handler_map.get(cls)
   885	
   886	                    if handler is not None:
   887	                        return handler
   888	        return None
   889	
   890	    def trap_http_exception(self, e: Exception) -> bool:
   891	        """Checks if an HTTP exception should be trapped or not.  By default
   892	        this will return ``False`` for all exceptions except for a bad request
   893	        key error if ``TRAP_BAD_REQUEST_ERRORS`` is set to ``True``.  It
   894	        also returns ``True`` if ``TRAP_HTTP_EXCEPTIONS`` is set to ``True``.
   895	
   896	        This is called for all HTTP exceptions raised by a view function.
   897	        If it returns ``True`` for any exception the error handler for this
   898	        exception is not called and it shows up as regular exception in the
   899	        traceback.  This is helpful for debugging implicitly raised HTTP
   900	        exceptions.
   901	
   902	        .. versionchanged:: 1.0
   903	            Bad request errors are not trapped by default in debug mode.
   904	
   905	        .. versionadded:: 0.8
   906	        """
   907	        if self.config["TRAP_HTTP_EXCEPTIONS"]:
   908	            return True
   909	
   910	        trap_bad_request = self.config["TRAP_BAD_REQUEST_ERRORS"]
   911	
   912	        # if unset, trap key errors in debug mode
   913	        if (
   914	            trap_bad_request is None
   915	            and self.debug
   916	            and isinstance(e, BadRequestKeyError)
   917	        ):
   918	            return True
   919	
   920	        if trap_bad_request:
   921	            return isinstance(e, BadRequest)
   922	
   923	        return False
   924	
   925	    should_ignore_error: None = None
   926	    """If this method returns ``True``, the error will not be passed to
   927	    teardown handlers, and the context will not be preserved for
   928	    debugging.
   929	
   930	    .. deprecated:: 3.2
   931	        Handle errors as needed in teardown handlers instead.
   932	
   933	    .. versionadded:: 0.10
   934	    """
   935	
   936	    def redirect(self, location: str, code: int = 303) -> BaseResponse:
   937	        """Create a redirect response object.
   938	
   939	        This is called by :func:`flask.redirect`, and can be called
   940	        directly as well.
   941	
   942	        :param location: The URL to redirect to.
   943	        :param code: The status code for the redirect.
   944	
   945	        .. versionchanged:: 3.2
   946	            ``code`` defaults to ``303`` instead of ``302``.
   947	
   948	        .. versionadded:: 2.2
   949	            Moved from ``flask.redirect``, which calls this method.
   950	        """
   951	        return _wz_redirect(
   952	            location,
   953	            code=code,
   954	            Response=self.response_class,  # type: ignore[arg-type]
   955	        )
   956	
   957	    def inject_url_defaults(self, endpoint: str, values: dict[str, t.Any]) -> None:
   958	        """Injects the URL defaults for the given endpoint directly into
   959	        the values dictionary passed.  This is used internally and
   960	        automatically called on URL building.
   961	
   962	        .. versionadded:: 0.7
   963	        """
   964	        names: t.Iterable[str | None] = (None,)
   965	
   966	        # url_for may be called outside a request context, parse the
   967	        # passed endpoint instead of using request.blueprints.
   968	        if "." in endpoint:
   969	            names = chain(
   970	                names, reversed(_split_blueprint_path(endpoint.rpartition(".")[0]))
   971	            )
   972	
   973	        for name in names:
   974	            if name in self.url_default_functions:
   975	                for func in self.url_default_functions[name]:
   976	                    func(endpoint, values)
   977	
   978	    def handle_url_build_error(
   979	        self, error: BuildError, endpoint: str, values: dict[str, t.Any]
   980	    ) -> str:
   981	        """Called by :meth:`.url_for` if a
   982	        :exc:`~werkzeug.routing.BuildError` was raised. If this returns
   983	        a value, it will be returned by ``url_for``, otherwise the error
   984	        will be re-raised.
   985	
   986	        Each function in :attr:`url_build_error_handlers` is called with
   987	        ``error``, ``endpoint`` and ``values``. If a function returns
   988	        ``None`` or raises a ``BuildError``, it is skipped. Otherwise,
   989	        its return value is returned by ``url_for``.
   990	
   991	        :param error: The active ``BuildError`` being handled.
   992	        :param endpoint: The endpoint being built.
   993	        :param values: The keyword arguments passed to ``url_for``.
   994	        """
   995	        for handler in self.url_build_error_handlers:
   996	            try:
   997	                rv = handler(error, endpoint, values)
   998	            except BuildError as e:
   999	                # make error available outside except block
  1000	                error = e
  1001	            else:
  1002	                if rv is not None:
  1003	                    return rv
  1004	
  1005	        # Re-raise if called with an active exception, otherwise raise
  1006	        # the passed in exception.
  1007	        if error is sys.exc_info()[1]:
  1008	            raise
  1009	
  1010	        raise error
