<?php

declare(strict_types=1);

namespace StoreApi;

/**
 * One entry of an error's `details`: which field, parameter or header is wrong (`$field`, a dotted
 * path such as `variants.0.sku`; null when the problem is about no one field), what kind of problem
 * (`$code`: `required`, `invalid_type`, `invalid_format`, `invalid_value`, `too_small`, `too_big`,
 * `unknown_field`, `unknown_parameter`, `not_found`, `already_exists` or `conflict`) and a message for
 * a person that starts with the field's name ("price must be 0 or more").
 */
final class ErrorDetail implements \JsonSerializable
{
    public function __construct(
        public readonly ?string $field,
        public readonly string $code,
        public readonly string $message,
    ) {
    }

    /**
     * `details` as a list whatever the server sent: a list as it is, and the one object
     * `{field, issue, code?, message?}` that INVALID_REQUEST carries in 2026-11-20 as a list of that
     * one entry (its message, else "<field> <issue>"). Entries without a message are dropped, a
     * missing code is `invalid_value`, anything else is [].
     *
     * @return list<ErrorDetail>
     */
    public static function listFrom(mixed $raw): array
    {
        if (is_array($raw) && $raw !== [] && !array_is_list($raw)) {
            $raw = [self::published($raw)];
        }
        if (!is_array($raw)) {
            return [];
        }
        $details = [];
        foreach ($raw as $item) {
            if ($item instanceof self) {
                $details[] = $item;
            } elseif (is_array($item) && is_string($item['message'] ?? null)) {
                $field = $item['field'] ?? null;
                $code = $item['code'] ?? null;
                $details[] = new self(is_string($field) ? $field : null, is_string($code) ? $code : 'invalid_value', $item['message']);
            }
        }
        return $details;
    }

    /**
     * The 2026-11-20 object `{field, issue}` (with `code` and `message` when the server adds them) as a list entry.
     *
     * @param array<string, mixed> $raw
     * @return array<string, mixed>
     */
    private static function published(array $raw): array
    {
        $field = $raw['field'] ?? null;
        $issue = $raw['issue'] ?? null;
        if (is_string($raw['message'] ?? null) || !is_string($issue)) {
            return $raw;
        }
        return ['message' => is_string($field) ? "$field $issue" : $issue] + $raw;
    }

    /** @return array{field?: string, code: string, message: string} the detail as the API sent it */
    public function jsonSerialize(): array
    {
        return ($this->field === null ? [] : ['field' => $this->field]) + ['code' => $this->code, 'message' => $this->message];
    }
}
