<?php

declare(strict_types=1);

namespace StoreApi\Exception;

/** AUTHENTICATION_ERROR (401): no credential where one is needed, or a bad one. */
class AuthenticationException extends ApiException
{
}
