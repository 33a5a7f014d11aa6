<?php

declare(strict_types=1);

namespace StoreApi\Exception;

/** AUTHORIZATION_ERROR (403): the credential lacks a permission (the message names it). */
class AuthorizationException extends ApiException
{
}
