import { defineModule } from '../../lib/define-module';

export default defineModule({
  name: 'customer-groups',
  routers: [{ at: '/api', keys: ['api/customer-groups'], load: async () => (await import('./router')).customerGroupsRouter }],
  tables: {
    audited: { customer_groups: 'customer_group', customer_group_members: 'customer_group_member' },
  },
});
