<?php

declare(strict_types=1);

namespace StoreApi;

/**
 * One page of a list: its items (`data`) and the envelope's `pagination`
 * (`page`, `limit`, `total`, `totalPages`, `hasNext`, `hasPrev`), and `facets` when a product list
 * was asked for them (`['facets' => 'category,brand,price']`), else null. Iterating and counting a Page
 * goes over its items; a resource's iterate...() method goes over every page.
 *
 * @template T
 * @implements \IteratorAggregate<int, T>
 */
final class Page implements \IteratorAggregate, \Countable
{
    /**
     * @param list<T> $data
     * @param array{page?: int, limit?: int, total?: int, totalPages?: int, hasNext?: bool, hasPrev?: bool} $pagination
     * @param array<string, list<array<string, mixed>>>|null $facets
     */
    public function __construct(
        public readonly array $data,
        public readonly array $pagination,
        public readonly ?array $facets = null,
    ) {
    }

    /**
     * @param array<string, mixed> $envelope the decoded `{success, data, pagination}` answer
     * @return self<mixed>
     */
    public static function fromEnvelope(array $envelope): self
    {
        $data = $envelope['data'] ?? [];
        return new self(
            is_array($data) ? array_values($data) : [],
            is_array($envelope['pagination'] ?? null) ? $envelope['pagination'] : [],
            is_array($envelope['facets'] ?? null) ? $envelope['facets'] : null,
        );
    }

    public function page(): int
    {
        return (int) ($this->pagination['page'] ?? 1);
    }

    public function total(): ?int
    {
        return isset($this->pagination['total']) ? (int) $this->pagination['total'] : null;
    }

    public function totalPages(): ?int
    {
        return isset($this->pagination['totalPages']) ? (int) $this->pagination['totalPages'] : null;
    }

    public function hasNext(): bool
    {
        if (isset($this->pagination['hasNext'])) {
            return (bool) $this->pagination['hasNext'];
        }
        $pages = $this->totalPages();
        return $pages !== null && $this->page() < $pages;
    }

    public function hasPrev(): bool
    {
        return (bool) ($this->pagination['hasPrev'] ?? $this->page() > 1);
    }

    /** @return \ArrayIterator<int, T> */
    public function getIterator(): \ArrayIterator
    {
        return new \ArrayIterator($this->data);
    }

    public function count(): int
    {
        return count($this->data);
    }
}
