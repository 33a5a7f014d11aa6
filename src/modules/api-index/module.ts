import { defineModule } from '../../lib/define-module';

export default defineModule({
  name: 'api-index',
  routers: [{ at: '/api', keys: ['api/'], load: async () => (await import('./router')).apiIndexRouter }],
});
