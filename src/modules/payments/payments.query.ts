import { PAYMENT_STATUSES, payments, refunds } from '../../db/schema';
import { createdAfterFilter, createdBeforeFilter, defineListQuery, enumFilter, exactFilter, fieldTreeFromSchema } from '../../lib/query';
import { PaymentSchema, RefundSchema } from './payments.schemas';
import { PROVIDER_NAMES } from './providers/registry';

export const paymentListQuery = defineListQuery({
  resource: 'payment',
  id: payments.id,
  sortable: { createdAt: payments.createdAt, amount: payments.amount, id: payments.id },
  defaultSort: [{ field: 'createdAt', direction: 'desc' }],
  selectable: fieldTreeFromSchema(PaymentSchema),
  filters: {
    order: exactFilter(payments.orderId, 'Payments of this order (id).'),
    status: enumFilter(payments.status, PAYMENT_STATUSES, 'Payment status.'),
    provider: enumFilter(payments.provider, PROVIDER_NAMES, 'Payment provider.'),
    created_after: createdAfterFilter(payments.createdAt),
    created_before: createdBeforeFilter(payments.createdAt),
  },
});

/** The payments of one order: the same list without the order filter. */
export const orderPaymentListQuery = defineListQuery({ ...paymentListQuery, filters: { status: paymentListQuery.filters.status } });

export const refundListQuery = defineListQuery({
  resource: 'refund',
  id: refunds.id,
  sortable: { createdAt: refunds.createdAt, amount: refunds.amount, id: refunds.id },
  defaultSort: [{ field: 'createdAt', direction: 'desc' }],
  selectable: fieldTreeFromSchema(RefundSchema),
  filters: {},
});
