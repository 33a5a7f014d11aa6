import { defineModule } from '../../lib/define-module';

export default defineModule({
  name: 'health',
  routers: [{ at: '/api', keys: ['api/health'], load: async () => (await import('./router')).healthRouter }],
});
