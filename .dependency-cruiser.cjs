// Layer rules (docs/architecture.md#services): domain code is pure; services never import each other, except that the
// gateway may use another service's `queries` export in process; libs never import services.
module.exports = {
  forbidden: [
    {
      name: 'domain-is-pure',
      comment:
        'src/domain may import only other domain code, libs/contracts, libs/s211, libs/values and node builtins that do no I/O',
      severity: 'error',
      from: { path: '^services/[^/]+/src/domain/' },
      to: {
        // Types describe data, they do no I/O: a domain function may take a RecordedEvent or an AuthContext.
        dependencyTypesNot: ['type-only'],
        path: [
          '/adapters/',
          '/entry-points/',
          'node_modules/(pg|amqplib|express|ioredis|@electric-sql)',
          '^libs/(sql|eventstore|messaging|http-kit|commands)/',
        ],
      },
    },
    {
      name: 'services-are-independent',
      comment: 'only the gateway may import another service (rule gateway-imports-only-queries)',
      severity: 'error',
      from: { path: '^services/([^/]+)/', pathNot: '^services/gateway/' },
      to: { path: '^services/([^/]+)/', pathNot: '^services/$1/' },
    },
    {
      name: 'gateway-imports-only-queries',
      comment:
        "the gateway may import of another service only its `queries` export (package.json's exports './queries')",
      severity: 'error',
      from: { path: '^services/gateway/' },
      to: { path: '^services/(?!gateway/)[^/]+/', pathNot: '^services/[^/]+/src/queries/index[.]ts$' },
    },
    {
      name: 'queries-import-only-libs',
      comment: "a service's queries module runs in another service's process: libs, and its own domain and adapters",
      severity: 'error',
      from: { path: '^services/([^/]+)/src/queries/' },
      to: { path: '^services/', pathNot: '^services/$1/src/(queries|domain|adapters)/' },
    },
    {
      name: 'libs-never-import-services',
      severity: 'error',
      from: { path: '^libs/' },
      to: { path: '^services/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    combinedDependencies: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
