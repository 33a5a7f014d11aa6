"""A page of a list, and iteration over all the pages."""

from __future__ import annotations

from typing import Any, Callable, Generic, Iterator, List, Mapping, Optional, TypeVar

T = TypeVar("T")


class Page(Generic[T]):
    """One page of a list: ``data`` (the items) and ``pagination``
    (``{"page", "limit", "total", "totalPages", "hasNext", "hasPrev"}``), and ``facets`` when a
    product list was asked for them (``facets="category,brand,price"``), else None.

    Iterating a Page gives the items of this page; ``iter_items()`` gives the items of this page and
    every following one, fetching them as needed, and ``iter_pages()`` the pages themselves.
    """

    def __init__(
        self,
        data: List[T],
        pagination: Mapping[str, Any],
        *,
        fetch: Optional[Callable[[int], "Page[T]"]] = None,
        message: Optional[str] = None,
        facets: Optional[Mapping[str, Any]] = None,
    ) -> None:
        self.data: List[T] = list(data)
        self.pagination: Any = dict(pagination)
        self.facets: Optional[Any] = dict(facets) if facets is not None else None
        self.message = message
        self._fetch = fetch

    @property
    def page(self) -> int:
        return int(self.pagination.get("page") or 1)

    @property
    def total(self) -> Optional[int]:
        return self.pagination.get("total")

    @property
    def has_next(self) -> bool:
        return bool(self.pagination.get("hasNext")) and len(self.data) > 0

    def next_page(self) -> Optional["Page[T]"]:
        """The following page, fetched now, or None after the last."""
        if not self.has_next or self._fetch is None:
            return None
        return self._fetch(self.page + 1)

    def iter_pages(self) -> Iterator["Page[T]"]:
        """This page, then every following one."""
        page: Optional[Page[T]] = self
        while page is not None:
            yield page
            page = page.next_page()

    def iter_items(self) -> Iterator[T]:
        """The items of this page and of every following one."""
        for page in self.iter_pages():
            yield from page.data

    def __iter__(self) -> Iterator[T]:
        return iter(self.data)

    def __len__(self) -> int:
        return len(self.data)

    def __getitem__(self, index: int) -> T:
        return self.data[index]

    def __repr__(self) -> str:
        return f"Page(page={self.page}, items={len(self.data)}, total={self.total})"
