module github.com/josebench/josebench

go 1.26
