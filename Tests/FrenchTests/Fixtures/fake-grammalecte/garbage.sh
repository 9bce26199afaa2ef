#!/bin/sh
echo 'this is not JSON'
