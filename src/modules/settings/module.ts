import { defineModule } from '../../lib/define-module';

export default defineModule({
  name: 'settings',
  routers: [{ at: '/api', keys: ['api/settings'], load: async () => (await import('./router')).settingsRouter }],
  permissions: ['settings'],
  tables: {
    audited: { store_settings: 'settings', currencies: 'currency', tax_classes: 'tax_class', tax_rates: 'tax_rate' },
  },
});
