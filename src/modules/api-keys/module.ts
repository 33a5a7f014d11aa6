import { defineModule } from '../../lib/define-module';

export default defineModule({
  name: 'api-keys',
  routers: [{ at: '/api', keys: ['api/settings'], load: async () => (await import('./router')).apiKeysRouter }],
  permissions: ['api-keys'],
  tables: {
    audited: { api_keys: 'api_key' },
  },
});
