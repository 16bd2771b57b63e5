// Layer rules (docs/architecture.md#services): domain code is pure; services never import each other; libs never
// import services.
module.exports = {
  forbidden: [
    {
      name: 'domain-is-pure',
      comment:
        'src/domain may import only other domain code, libs/contracts, libs/s211 and node builtins that do no I/O',
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
      severity: 'error',
      from: { path: '^services/([^/]+)/' },
      to: { path: '^services/([^/]+)/', pathNot: '^services/$1/' },
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
